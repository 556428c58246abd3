import ScreenDriver
import ScreenKit
import TestSupport
import Testing
import ToolboxKit
@testable import BlogctlKit

/// `blogctl ui`'s list, arrange menu, search and loading states, key by key, without a terminal.
@Suite struct PostBrowserTests: BrowserTesting {
    @Test func eachPostIsTwoRowsWithTitleAuthorDateSummaryAndAnUnreadMark() {
        var browser = loaded()
        #expect(!browser.isBusy)
        let lines = ScreenDriver.screen(&browser).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // Newest first: a1 (2018-08-31), then m2.
        #expect(lines[1].hasPrefix(" • zebra crossings"))
        #expect(lines[1].contains("Ada Lovelace · " + DateDisplay.human(Fixtures.posts[0].publishDate)))
        #expect(lines[2] == "   Summary of zebra crossings")
        #expect(lines[3].hasPrefix(" • banana"))
        let apple = lines.first { $0.contains("Apple pie") }!
        #expect(apple.hasPrefix("   Apple pie"), "a2 is read: no mark")
        #expect(ScreenDriver.screen(&browser).contains("7 posts · 6 unread"))
    }

    @Test func narrowScreensKeepAuthorAndDayAndCutTheTitle() {
        var browser = loaded()
        let lines = ScreenDriver.screen(&browser, rows: 16, columns: 60).split(separator: "\n").map(String.init)
        #expect(lines[1].contains("Ada Lovelace · 2018-09-01") || lines[1].contains("Ada Lovelace · 2018-08-31"))
        #expect(lines.allSatisfy { TextWidth.of($0) <= 60 })
    }

    @Test func theArrangeMenuTypesAheadAppliesAndAsksToRemember() {
        var browser = loaded()
        _ = browser.handle(.character("o"))
        #expect(browser.menu?.entries == ["Group by author", "Group by month", "No groups", "Sort by date", "Sort by title",
                                          "Sort by author", "Reverse"])
        ScreenDriver.type("group by a", into: &browser)
        do {
            let value = browser.handle(.enter)
            #expect(value == [.saveArrangement(Arrangement(grouping: .author))])
        }
        #expect(browser.menu == nil)
        let text = ScreenDriver.screen(&browser, rows: 40)
        let headers = ["Ada Lovelace (2)", "Edsger Dijkstra (1)", "grace Hopper (2)", "Margaret Hamilton (2)"]
        let positions = headers.map { text.range(of: $0)?.lowerBound }
        #expect(positions.allSatisfy { $0 != nil })
        #expect(positions.compactMap { $0 } == positions.compactMap { $0 }.sorted(), "author sections A to Z")
        // "s" then "sort by t" picks the title; "r" reverses; Esc closes without a change.
        _ = browser.handle(.character("o"))
        ScreenDriver.type("sort by t", into: &browser)
        _ = browser.handle(.enter)
        #expect(browser.postList.arrangement == Arrangement(grouping: .author, sorting: .title))
        _ = browser.handle(.character("o"))
        ScreenDriver.type("r", into: &browser)
        _ = browser.handle(.enter)
        #expect(browser.postList.arrangement.reversed)
        _ = browser.handle(.character("o"))
        do { let value = browser.handle(.escape); #expect(value == []) }
        #expect(browser.menu == nil)
        #expect(ScreenDriver.screen(&browser).contains("posts (by author, title reversed)"))
    }

    @Test func theArrangementIsRememberedInTheStateFolder() throws {
        let folder = TemporaryFolders.make("blogctl-state")
        let path = Arrangement.path(environment: ["HOME": "/nowhere", "XDG_STATE_HOME": folder])
        #expect(path == folder + "/blogctl/ui.json")
        #expect(Arrangement.path(environment: ["HOME": "/home/u"]) == "/home/u/.local/state/blogctl/ui.json")
        #expect(Arrangement.load(from: path) == Arrangement())
        try Arrangement(grouping: .month, sorting: .author, reversed: true).save(to: path)
        #expect(Arrangement.load(from: path) == Arrangement(grouping: .month, sorting: .author, reversed: true))
        try LocalFile.writeAtomically(path, Array("not json".utf8))
        #expect(Arrangement.load(from: path) == Arrangement(), "a damaged preference is the default")
    }

    @Test func enterOpensAPostMarksItReadAndEscGoesBack() {
        var browser = loaded()
        do {
            let value = browser.handle(.enter)
            #expect(value == [.openPost(id: "a1", width: 78), .mark(ids: ["a1"], read: true)])
        }
        #expect(browser.isBusy)
        #expect(browser.postList.read.contains("a1"))
        _ = browser.receive(.progress(id: "a1", done: 2_000_000, total: 8_000_000, seconds: 2))
        let loading = ScreenDriver.screen(&browser)
        #expect(loading.contains("downloading 2.0 MB of 8.0 MB (25%) · 1.0 MB/s"))
        #expect(loading.contains("Esc stops the download"))
        // Esc while loading cancels the download and shows the list at once.
        do { let value = browser.handle(.escape); #expect(value == [.stopLoading]) }
        #expect(browser.reader == nil)
        #expect(ScreenDriver.screen(&browser).contains("6 posts") == false)
        #expect(ScreenDriver.screen(&browser).contains("7 posts · 5 unread"))
        // A late answer for the closed post changes nothing.
        _ = browser.receive(.post(id: "a1", .success(text("a1", lines: ["late"]))))
        #expect(browser.reader == nil)
    }

    @Test func uTogglesTheMarkInTheListAndWhileReading() {
        var browser = loaded()
        do { let value = browser.handle(.character("u")); #expect(value == [.mark(ids: ["a1"], read: true)]) }
        #expect(ScreenDriver.screen(&browser).contains("5 unread"))
        do { let value = browser.handle(.character("u")); #expect(value == [.mark(ids: ["a1"], read: false)]) }
        _ = browser.handle(.enter)
        do { let value = browser.handle(.character("u")); #expect(value == [.mark(ids: ["a1"], read: false)]) }
        _ = browser.receive(.marked(.io(path: "/x/read.json", reason: "No space left on device")))
        #expect(ScreenDriver.screen(&browser).contains("marks not saved"))
    }

    @Test func bigUShowsOnlyUnreadPosts() {
        var browser = loaded()
        _ = browser.handle(.character("U"))
        let text = ScreenDriver.screen(&browser, rows: 40)
        #expect(!text.contains("Apple pie"))
        #expect(text.contains("unread only"))
        _ = browser.handle(.character("U"))
        #expect(ScreenDriver.screen(&browser, rows: 40).contains("Apple pie"))
    }

    /// Issue 65: newsboat's `F`, an expression of the filter language over the list; a wrong
    /// one is said with its column and changes nothing; Esc clears it after the typed filter.
    @Test func bigFFiltersWithAnExpression() {
        var browser = loaded()
        _ = browser.handle(.character("F"))
        ScreenDriver.type("author =~ \"^ada\" and unread = \"yes\"", into: &browser)
        #expect(ScreenDriver.screen(&browser, rows: 40).contains("filter: author =~"))
        _ = browser.handle(.enter)
        #expect(browser.postList.shown.map(\.id) == ["a1"], "a2 is read")
        let screen = ScreenDriver.screen(&browser, rows: 40, columns: 120)
        #expect(screen.contains("F \"author =~") && screen.contains("1 of 7 posts"), "\(screen)")
        // A wrong expression: said, and the filter in force stays.
        _ = browser.handle(.character("F"))
        ScreenDriver.type("titel = x", into: &browser)
        _ = browser.handle(.control("u"))
        ScreenDriver.type("titel = x", into: &browser)
        _ = browser.handle(.enter)
        #expect(browser.notice?.contains("column 1: unknown attribute \"titel\"") == true, "\(browser.notice ?? "")")
        #expect(browser.postList.shown.map(\.id) == ["a1"])
        // With U, both apply; the typed filter narrows further; Esc clears it, then the expression.
        _ = browser.handle(.character("U"))
        _ = browser.handle(.character("/"))
        ScreenDriver.type("zzz", into: &browser)
        _ = browser.handle(.escape)
        _ = browser.handle(.escape)
        #expect(browser.postList.expression == nil && browser.notice == "the filter is cleared")
        #expect(browser.postList.shown.map(\.id).sorted() == ["a1", "e1", "g1", "g2", "m1", "m2"], "unread only stays")
    }

    /// The list's items are titles, but `/` finds a post by its author and summary too.
    @Test func theFilterFindsAuthorsAndSummaries() {
        var browser = loaded()
        _ = browser.handle(.character("/"))
        ScreenDriver.type("hamilton", into: &browser)
        #expect(browser.postList.list.shownItems.map { browser.postList.shown[$0].id }.sorted() == ["m1", "m2"])
        _ = browser.handle(.escape)
        _ = browser.handle(.character("/"))
        ScreenDriver.type("summary of middle", into: &browser)
        #expect(browser.postList.list.shownItems.map { browser.postList.shown[$0].id }.sorted() == ["e1", "g2"])
    }

    @Test func searchReplacesTheListAndEscReturns() {
        var browser = loaded()
        _ = browser.handle(.character("/"))
        ScreenDriver.type("apple  tart", into: &browser)
        do { let value = browser.handle(.enter); #expect(value == [.search("apple tart")]) }
        #expect(ScreenDriver.screen(&browser).contains("searching"))
        let hit = SearchIndex.Hit(id: "g1", title: "apple tart", author: "grace Hopper",
                                  snippet: "an \u{E000}apple\u{E001} a day", cached: true)
        _ = browser.receive(.found(query: "apple tart", .success([hit])))
        let view = ScreenDriver.screen(&browser)
        #expect(view.contains("search: apple tart"))
        #expect(view.contains("an apple a day"))
        #expect(!view.contains("zebra"))
        #expect(view.contains("1 found"))
        do { let value = browser.handle(.enter); #expect(value == [.openPost(id: "g1", width: 78), .mark(ids: ["g1"], read: true)]) }
        _ = browser.handle(.escape)
        #expect(browser.results != nil, "Esc from the post returns to the results")
        #expect(ScreenDriver.screen(&browser).contains("search \"apple tart\""), "the search is named in the status line")
        _ = browser.handle(.escape)
        #expect(browser.results == nil)
        // Issue 47: Esc from results is "all posts", as the footer says: the filter goes too.
        #expect(ScreenDriver.screen(&browser).contains("zebra"), "Esc from the results clears the filter")
        // A filter in force is named beside the counts, with what it leaves of the whole.
        _ = browser.handle(.character("/"))
        ScreenDriver.type("apple", into: &browser)
        #expect(ScreenDriver.screen(&browser, columns: 120).contains("/apple · 2 of \(browser.postList.posts.count) posts"), "\(ScreenDriver.screen(&browser, columns: 120))")
        _ = browser.handle(.escape)
        #expect(!ScreenDriver.screen(&browser, columns: 120).contains("/apple"))
        _ = browser.handle(.character("/"))
        _ = browser.handle(.escape)
        #expect(!browser.postList.list.isFiltering && browser.outcome == nil)
        _ = browser.handle(.character("/"))
        ScreenDriver.type("zz", into: &browser)
        _ = browser.handle(.enter)
        _ = browser.receive(.found(query: "zz", .success([])))
        #expect(ScreenDriver.screen(&browser).contains("nothing found"))
    }

    @Test func offlineTheSavedListShowsAndTheStatusSaysSo() {
        var browser = PostBrowser(server: "http://127.0.0.1:9", arrangement: Arrangement())
        _ = browser.start()
        #expect(ScreenDriver.screen(&browser).contains("loading the posts"))
        _ = browser.receive(.listing(Fixtures.posts, read: [], fromServer: false))
        _ = browser.receive(.listFailed(.unreachable(url: "http://127.0.0.1:9/post-metadata", reason: "Connection refused")))
        let view = ScreenDriver.screen(&browser, columns: 120)
        #expect(view.contains("(offline)"))
        #expect(view.contains("zebra crossings"))
        #expect(view.contains("posts (date) · the saved list"))
        #expect(view.contains("(r retries)") || view.contains("Connection r"))
        do { let value = browser.handle(.character("r")); #expect(value == [.loadList]) }
        // An uncached post says so.
        _ = browser.handle(.enter)
        _ = browser.receive(.post(id: "a1", .failure(.unreachable(url: "http://127.0.0.1:9/post/a1", reason: "Connection refused"))))
        #expect(ScreenDriver.screen(&browser, columns: 120).contains("not cached, and the server cannot be reached"))
        do { let value = browser.handle(.character("r")); #expect(value == [.openPost(id: "a1", width: 118)]) }
    }

    @Test func noListAtAllSaysWhy() {
        var browser = PostBrowser(server: "http://127.0.0.1:9", arrangement: Arrangement())
        _ = browser.start()
        _ = browser.receive(.listFailed(.unreachable(url: "http://127.0.0.1:9/post-metadata", reason: "Connection refused")))
        #expect(ScreenDriver.screen(&browser, columns: 120).contains("no posts: the server cannot be reached and none are saved"))
    }

    @Test func prefetchRunsInTheBackgroundWithProgress() {
        var browser = loaded()
        do { let value = browser.handle(.character("P")); #expect(value == [.prefetch(Fixtures.posts)]) }
        #expect(browser.isBusy)
        do { let value = browser.handle(.character("P")); #expect(value == []) }
        _ = browser.receive(.prefetchProgress(done: 3, total: 7))
        #expect(ScreenDriver.screen(&browser).contains("prefetch 3/7"))
        _ = browser.handle(.enter)
        _ = browser.receive(.prefetched(fetched: 6, failed: 1, firstFailure: "prefetch: server error"))
        #expect(!browser.isBusy || browser.reader?.isLoading == true)
        #expect(ScreenDriver.screen(&browser).contains("prefetch: 6 fetched, 1 failed"))
    }

    @Test func everyKeyIsInTheHelp() {
        var browser = loaded()
        _ = browser.handle(.character("?"))
        let help = ScreenDriver.screen(&browser, rows: 40, columns: 100)
        for label in ["read the post", "arrange", "search", "only unread", "mark read", "prefetch", "reload", "quit"] {
            #expect(help.contains(label), "\(label)")
        }
        _ = browser.handle(.character("x"))
        _ = browser.handle(.enter)
        _ = browser.handle(.character("?"))
        let reading = ScreenDriver.screen(&browser, rows: 40, columns: 100)
        for label in ["find in the post", "next match", "next post", "links", "fetch the post again", "back to the list"] {
            #expect(reading.contains(label), "\(label)")
        }
    }

    @Test func marksMadeWhileTheListLoadsSurviveItsArrival() {
        var browser = PostBrowser(server: "http://127.0.0.1:8106", arrangement: Arrangement())
        _ = browser.start()
        _ = browser.receive(.listing(Fixtures.posts, read: ["a2"], fromServer: false))
        _ = browser.handle(.enter)
        _ = browser.handle(.escape)
        _ = browser.handle(.character("j"))
        _ = browser.handle(.character("u"))
        // The server's list comes with the marks read before these two were written.
        _ = browser.receive(.listing(Fixtures.posts, read: ["a2"], fromServer: true))
        #expect(browser.postList.read.contains("a1") && browser.postList.read.contains("m2") && browser.postList.read.contains("a2"))
        #expect(ScreenDriver.screen(&browser).contains("7 posts · 4 unread"))
    }

    @Test func qQuitsFromTheList() {
        var browser = loaded()
        _ = browser.handle(.character("q"))
        #expect(browser.outcome == 0)
    }
}

/// Issue 38, items 1 and 10: Esc leaves search results and never quits; a new search starts empty.
extension PostBrowserTests {
    @Test func escNeverQuitsTheFirstScreenAndASearchStartsEmpty() {
        var browser = loaded()
        _ = browser.handle(.escape)
        #expect(browser.outcome == nil)
        _ = browser.handle(.character("/"))
        for character in "dijkstra" { _ = browser.handle(.character(character)) }
        _ = browser.handle(.enter)
        _ = browser.handle(.character("/"))
        #expect(browser.postList.list.isFiltering && browser.postList.list.filter.text == "" && browser.results == nil)
        _ = browser.handle(.escape)
        _ = browser.handle(.escape)
        _ = browser.handle(.escape)
        #expect(browser.outcome == nil)
        _ = browser.handle(.character("q"))
        #expect(browser.outcome == 0)
    }
}
