import ScreenDriver
import ScreenKit
import TestSupport
import Testing
import ToolboxKit
@testable import BlogctlKit

/// Issue 49: `blogctl ui`'s first screen with subscriptions, newsboat's feed list, key by key.
@Suite struct FeedListTests {
    let rows = [
        FeedRow(name: "Blog Nerd Ranch", url: "http://127.0.0.1:1/feed.atom", entries: 7, unread: 6),
        FeedRow(name: "Quiet", url: "http://127.0.0.1:1/quiet.xml", entries: 3, unread: 0),
        FeedRow(name: "Dead", url: "http://127.0.0.1:2/dead.xml", entries: 0, unread: 0, error: "connection refused"),
    ]

    func loaded() -> FeedList {
        var feeds = FeedList(arrangement: Arrangement())
        do { let value = feeds.start(); #expect(value == [.refreshFeeds]) }
        #expect(feeds.isBusy)
        _ = feeds.receive(.feeds(rows, refreshing: false, failed: 1))
        return feeds
    }

    @Test func eachFeedIsOneRowWithItsCountsOrItsError() {
        var feeds = loaded()
        #expect(!feeds.isBusy)
        let lines = ScreenDriver.screen(&feeds).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines[0].contains("blogctl › feeds"))
        #expect(lines[1].hasPrefix(" • Blog Nerd Ranch") && lines[1].hasSuffix("6 unread of 7"), "\(lines[1])")
        #expect(lines[2].hasPrefix("   Quiet") && lines[2].contains("0 unread of 3"), "no unread: no mark")
        #expect(lines[3].hasPrefix(" ! Dead") && lines[3].contains("! connection refused · no entries"))
        let text = ScreenDriver.screen(&feeds)
        #expect(text.contains("3 feeds · 6 unread") && text.contains("1 of 3 feeds failed (r retries)"))
        // A refresh that fails nothing clears the error.
        _ = feeds.receive(.feeds(rows, refreshing: false, failed: 0))
        #expect(!ScreenDriver.screen(&feeds).contains("failed"))
    }

    /// Issue 64: what a refresh says once (a feed that moved) shows on the status line, as
    /// `list` says it on stderr, where the screen said nothing of it.
    @Test func aMoveIsSaidOnTheStatusLine() {
        var feeds = loaded()
        _ = feeds.receive(.feeds(rows, refreshing: false, failed: 0))
        _ = feeds.receive(.said("Quiet: moved permanently to https://q.example/feed; subscribed there now"))
        #expect(ScreenDriver.screen(&feeds).contains("Quiet: moved permanently to https"))
    }

    @Test func aNarrowScreenCutsTheNameAndKeepsTheCounts() {
        var feeds = loaded()
        let lines = ScreenDriver.screen(&feeds, rows: 16, columns: 60).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.count == 16 && lines.allSatisfy { TextWidth.of($0) <= 60 })
        #expect(lines[1].hasSuffix("6 unread of 7") && lines[3].hasPrefix(" ! Dead"), "\(lines)")
    }

    @Test func theCachedRowsShowWhileEveryFeedRefreshes() {
        var feeds = FeedList(arrangement: Arrangement())
        _ = feeds.start()
        #expect(ScreenDriver.screen(&feeds).contains("reading the subscriptions"))
        _ = feeds.receive(.feeds(rows, refreshing: true, failed: nil))
        #expect(feeds.isBusy && ScreenDriver.screen(&feeds).contains("refreshing"))
        do { let value = feeds.handle(.character("r")); #expect(value == []) }
        #expect(feeds.notice == "already refreshing")
        _ = feeds.receive(.feeds(rows, refreshing: false, failed: 0))
        do { let value = feeds.handle(.character("r")); #expect(value == [.refreshFeeds]) }
    }

    @Test func enterOpensTheFeedsEntriesAndQComesBackWithItsCounts() {
        var feeds = loaded()
        do {
            let value = feeds.handle(.enter)
            #expect(value == [.entries(url: rows[0].url, opening: 1, .loadList)])
        }
        #expect(feeds.entries != nil)
        _ = feeds.receive(.entries(opening: 1, .listing(Fixtures.posts, read: ["a2"], fromServer: true)))
        let screen = ScreenDriver.screen(&feeds)
        #expect(screen.contains("blogctl › Blog Nerd Ranch (date)") && screen.contains("zebra crossings"), "\(screen)")
        // Reading the newest post marks it read, in that feed's marks.
        let commands = feeds.handle(.enter)
        #expect(commands.contains(.entries(url: rows[0].url, opening: 1, .mark(ids: ["a1"], read: true))), "\(commands)")
        _ = feeds.handle(.escape)
        do { let value = feeds.handle(.character("q")); #expect(value == []) }
        #expect(feeds.entries == nil && feeds.outcome == nil, "q in a feed comes back to the feeds")
        #expect(feeds.feeds[0].unread == 7 - 2 && feeds.feeds[0].entries == 7)
        #expect(ScreenDriver.screen(&feeds).contains("5 unread of 7"))
        _ = feeds.handle(.character("q"))
        #expect(feeds.outcome == 0)
    }

    @Test func whatAFeedClosedEarlierStillSendsIsDropped() {
        var feeds = loaded()
        _ = feeds.handle(.enter)
        _ = feeds.handle(.character("q"))
        _ = feeds.handle(.character("j"))
        do {
            let value = feeds.handle(.enter)
            #expect(value == [.entries(url: rows[1].url, opening: 2, .loadList)])
        }
        // The first feed's list arrives late: it is not the second feed's.
        _ = feeds.receive(.entries(opening: 1, .listing(Fixtures.posts, read: [], fromServer: true)))
        #expect(feeds.entries?.postList.posts.isEmpty == true)
        _ = feeds.receive(.entries(opening: 2, .listing(Array(Fixtures.posts.prefix(2)), read: [], fromServer: true)))
        #expect(feeds.entries?.postList.posts.count == 2)
        #expect(ScreenDriver.screen(&feeds).contains("blogctl › Quiet"))
    }

    @Test func anOpenFeedsQueuesAreItsOwn() {
        let mark = FeedList.Command.entries(url: "u", opening: 1, .mark(ids: ["x"], read: true))
        #expect(mark.policy == .serial("entries.marks"))
        #expect(FeedList.Command.entries(url: "u", opening: 1, .loadList).policy == .latest("entries.list"))
        #expect(FeedList.Command.refreshFeeds.policy == .latest("feeds"))
    }

    @Test func theFilterFindsAFeedByNameOrURLAndEscClearsIt() {
        var feeds = loaded()
        _ = feeds.handle(.character("/"))
        ScreenDriver.type("quiet", into: &feeds)
        // Enter keeps the filter and searches every feed's entries too; Esc comes back from
        // the hits to the feeds it kept.
        do { let value = feeds.handle(.enter); #expect(value == [.search("quiet")]) }
        _ = feeds.handle(.escape)
        #expect(feeds.selectedFeed?.name == "Quiet")
        #expect(ScreenDriver.screen(&feeds).contains("/quiet · 3 feeds"))
        do { let value = feeds.handle(.enter); #expect(value == [.entries(url: rows[1].url, opening: 1, .loadList)]) }
        _ = feeds.handle(.character("q"))
        _ = feeds.handle(.escape)
        #expect(feeds.list.filterLabel == nil)
        _ = feeds.handle(.character("/"))
        ScreenDriver.type("2/dead", into: &feeds)
        _ = feeds.handle(.enter)
        _ = feeds.handle(.escape)
        #expect(feeds.selectedFeed?.name == "Dead")
    }

    /// Issue 65: `/` on the feed list searches the entries of every feed, as `blogctl search`
    /// does (newsboat's search from the feed list); a hit is read in its own feed, `q` goes
    /// back to that feed's entries and `q` again to the hits.
    /// Issue 65: a query feed of the urls file is a row after the feeds; Enter lists the
    /// entries its filter keeps, newest first, each read in its own feed.
    @Test func aQueryFeedListsOtherFeedsEntries() {
        var feeds = FeedList(arrangement: Arrangement())
        _ = feeds.start()
        _ = feeds.receive(.feeds(rows + [FeedRow(name: "Unread", url: "query:Unread", entries: 2, unread: 2)], refreshing: false, failed: nil))
        _ = feeds.handle(.character("G"))
        #expect(ScreenDriver.screen(&feeds).contains("2 unread of 2"))
        do { let value = feeds.handle(.character("A")); #expect(value == []) }
        #expect(feeds.notice == "a query feed's entries are marked in their own feeds")
        // C marks the feeds, not the query feed's URL.
        do { let value = feeds.handle(.character("C")); #expect(value == [.markRead(rows.map(\.url))]) }
        do {
            let value = feeds.handle(.enter)
            #expect(value == [.queryFeed("Unread", names: Dictionary(uniqueKeysWithValues: rows.map { ($0.url, $0.name) }))], "\(value)")
        }
        var hit = SearchIndex.Hit(id: "q7", title: "Quiet news", author: "Ann", snippet: "a summary", cached: false)
        hit.feed = "Quiet"
        _ = feeds.receive(.found(query: "query:Unread", .success([hit]), urls: [rows[1].url]))
        let screen = ScreenDriver.screen(&feeds)
        #expect(screen.contains("query feed: Unread") && screen.contains("1 entries · query") && screen.contains("Quiet · Ann"), "\(screen)")
        do { let value = feeds.handle(.enter); #expect(value.contains(.entries(url: rows[1].url, opening: 1, .openPost(id: "q7", width: 78))), "\(value)") }
    }

    @Test func slashSearchesEveryFeedsEntriesAndEnterReadsAHitInItsFeed() {
        var feeds = loaded()
        _ = feeds.handle(.character("/"))
        ScreenDriver.type("zebra", into: &feeds)
        do { let value = feeds.handle(.enter); #expect(value == [.search("zebra")]) }
        #expect(feeds.isBusy && ScreenDriver.screen(&feeds).contains("searching"))
        var hit = SearchIndex.Hit(id: "q7", title: "Zebra crossings, quietly", author: "Ann", snippet: "about \u{E000}zebra\u{E001}s", cached: true)
        hit.feed = "Quiet"
        var other = SearchIndex.Hit(id: "b1", title: "Zebras of the blog", author: "Bo", snippet: "zebra", cached: false)
        other.feed = "Blog Nerd Ranch"
        // An answer to an earlier search is not this one's.
        _ = feeds.receive(.found(query: "older", .success([other]), urls: [rows[0].url]))
        #expect(feeds.isBusy)
        _ = feeds.receive(.found(query: "zebra", .success([hit, other]), urls: [rows[1].url, rows[0].url]))
        let screen = ScreenDriver.screen(&feeds)
        #expect(screen.contains("search every feed: zebra") && screen.contains("2 found"), "\(screen)")
        #expect(screen.contains("Zebra crossings, quietly") && screen.contains("Quiet · Ann") && screen.contains("Blog Nerd Ranch · Bo"), "\(screen)")
        // Keys of the feeds out of sight do nothing here.
        do { let value = feeds.handle(.character("C")); #expect(value == []) }
        do {
            let value = feeds.handle(.enter)
            #expect(value == [.entries(url: rows[1].url, opening: 1, .loadList), .entries(url: rows[1].url, opening: 1, .openPost(id: "q7", width: 78)),
                              .entries(url: rows[1].url, opening: 1, .mark(ids: ["q7"], read: true))], "\(value)")
        }
        #expect(ScreenDriver.screen(&feeds).contains("Zebra crossings, quietly"))
        _ = feeds.handle(.character("q"))
        _ = feeds.handle(.character("q"))
        #expect(feeds.entries == nil && feeds.outcome == nil)
        #expect(ScreenDriver.screen(&feeds).contains("search every feed: zebra"), "back to the hits")
        _ = feeds.handle(.character("j"))
        do { let value = feeds.handle(.enter); #expect(value.contains(.entries(url: rows[0].url, opening: 2, .openPost(id: "b1", width: 78))), "\(value)") }
    }

    @Test func aResizeReachesTheOpenFeed() {
        var feeds = loaded()
        _ = feeds.handle(.enter)
        _ = feeds.receive(.entries(opening: 1, .listing(Fixtures.posts, read: [], fromServer: true)))
        let lines = ScreenDriver.screen(&feeds, rows: 16, columns: 60).split(separator: "\n").map(String.init)
        #expect(lines.allSatisfy { TextWidth.of($0) <= 60 })
        #expect(lines.count == 16)
    }
}

/// Issue 65: on a terminal `feeds` gives way in its URL (cut in the middle) and its name
/// before its error, which it shows without the ` (URL)` its URL column already says; piped,
/// every field whole.
@Suite struct SubscriptionTableTests {
    @Test func theErrorIsTheLastToGiveWay() {
        let url = "https://a-rather-long-host-name.example.org/some/deep/path/to/the/feed.xml"
        let rows = [SubscriptionTable.Row(name: "A feed with a long enough name", url: url, entries: 12, unread: 3, updated: nil,
                                          error: "connection refused (\(url))")]
        for width in [80, 100, 120] {
            let text = SubscriptionTable.render(rows, mode: .table, width: width)
            let lines = text.split(separator: "\n")
            #expect(lines.allSatisfy { TextWidth.of(String($0)) <= width }, "\(text)")
            #expect(lines[1].hasSuffix("connection refused"), "\(width): \(text)")
        }
        let piped = SubscriptionTable.render(rows, mode: .tsv)
        #expect(piped.hasSuffix("\tconnection refused (\(url))\n") && piped.contains("\t" + url + "\t"), "\(piped)")
    }
}

/// Issue 65: newsboat's keys on the feed list and the entry list, where ours meant nothing.
@Suite struct NewsboatListKeysTests: BrowserTesting {
    let rows = [
        FeedRow(name: "One", url: "http://127.0.0.1:1/1.xml", entries: 2, unread: 1),
        FeedRow(name: "Two", url: "http://127.0.0.1:1/2.xml", entries: 3, unread: 0),
        FeedRow(name: "Three", url: "http://127.0.0.1:1/3.xml", entries: 4, unread: 4),
    ]

    @Test func feedListNextUnreadAndMarkRead() {
        var feeds = FeedList(arrangement: Arrangement())
        _ = feeds.start()
        _ = feeds.receive(.feeds(rows, refreshing: false, failed: 0))
        #expect(feeds.list.selection == 0)
        _ = feeds.handle(.character("n"))
        #expect(feeds.list.selection == 2, "Two has none unread: skipped")
        _ = feeds.handle(.character("n"))
        #expect(feeds.list.selection == 2 && feeds.notice == "no unread feed below")
        _ = feeds.handle(.character("N"))
        #expect(feeds.list.selection == 0)
        #expect(feeds.handle(.character("A")) == [.markRead(["http://127.0.0.1:1/1.xml"])])
        #expect(feeds.feeds.map(\.unread) == [0, 0, 4] && feeds.status.counts == "3 feeds · 4 unread")
        #expect(feeds.handle(.character("C")) == [.markRead(rows.map(\.url))])
        #expect(feeds.feeds.allSatisfy { $0.unread == 0 })
        #expect(feeds.handle(.character("R")) == [.refreshFeeds])
    }

    @Test func entryListNextUnreadAndMarkAllRead() {
        // Every fixture post unread but a2.
        var browser = loaded()
        let order = browser.readingOrder.map(\.id)
        let firstUnread = order.firstIndex { $0 != "a2" }!
        _ = browser.handle(.character("n"))
        let moved = browser.currentList.selection!
        #expect(moved > 0 && order[moved] != "a2" && moved >= firstUnread, "\(order) \(moved)")
        _ = browser.handle(.character("N"))
        #expect(browser.currentList.selection.map { order[$0] != "a2" } == true)
        let commands = browser.handle(.character("A"))
        #expect(commands == [.mark(ids: order.filter { $0 != "a2" }, read: true)], "\(commands)")
        #expect(browser.postList.unreadCount == 0)
        #expect(browser.handle(.character("A")).isEmpty && browser.notice == "every post here is read")
        _ = browser.handle(.character("n"))
        #expect(browser.notice == "no unread post below")
    }
}

/// Issue 65: newsboat's `t` on the feed list: the feeds of one tag, or all.
@Suite struct FeedListTagTests {
    @Test func tShowsTheFeedsOfOneTag() {
        var feeds = FeedList(arrangement: Arrangement())
        _ = feeds.start()
        _ = feeds.handle(.character("t"))
        #expect(feeds.menu == nil)
        _ = feeds.receive(.feeds([
            FeedRow(name: "Swift", url: "http://127.0.0.1:1/s.xml", entries: 2, unread: 1, tags: ["Tech/Dev Video"]),
            FeedRow(name: "Cooking", url: "http://127.0.0.1:1/c.xml", entries: 3, unread: 3, tags: ["Food"]),
            FeedRow(name: "Kernel", url: "http://127.0.0.1:1/k.xml", entries: 4, unread: 0, tags: ["Tech"]),
        ], refreshing: false, failed: 0))
        _ = feeds.handle(.character("t"))
        #expect(feeds.menu?.entries == ["all feeds", "Food", "Tech", "Tech/Dev Video"])
        for key in "Tech" { _ = feeds.handle(.character(key)) }
        _ = feeds.handle(.enter)
        #expect(feeds.tag == "Tech" && feeds.feeds.map(\.name) == ["Swift", "Kernel"], "Tech takes Tech/Dev Video")
        #expect(feeds.status.counts == "tag Tech · 2 feeds · 1 unread")
        // C marks every feed read, the hidden ones too; the tag stays.
        #expect(feeds.handle(.character("C")) == [.markRead(["http://127.0.0.1:1/s.xml", "http://127.0.0.1:1/c.xml", "http://127.0.0.1:1/k.xml"])])
        #expect(feeds.feeds.count == 2)
        _ = feeds.handle(.character("t"))
        _ = feeds.handle(.enter)
        #expect(feeds.tag == nil && feeds.feeds.count == 3 && feeds.feeds.allSatisfy { $0.unread == 0 })
    }
}
