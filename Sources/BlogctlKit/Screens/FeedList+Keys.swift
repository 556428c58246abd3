import ScreenKit
import ToolboxKit
import BlogctlEngines

extension FeedList {
    enum Action: Sendable, Equatable {
        case motion(Motion), open, filter, reload, help, back, quit
        case nextUnread, previousUnread, markFeedRead, markAllRead, tags
    }

    static let keys = KeyTable<Action>(
        Motion.bindings.map { .init($0.keys, $0.label, Action.motion($0.action)) } + [
            .init([.enter, .right], "the feed's entries (q there comes back here)", .open, hint: "entries"),
            .init([.character("/")], "filter feeds as you type; Enter searches all entries", .filter, hint: "filter"),
            .init([.character("r"), .character("R")], "refresh every feed", .reload, hint: "refresh"),
            .init([.character("n")], "the next feed with unread entries", .nextUnread),
            .init([.character("N")], "the previous feed with unread entries", .previousUnread),
            .init([.character("A")], "mark every entry of the feed read", .markFeedRead),
            .init([.character("C")], "mark every entry of every feed read", .markAllRead),
            .init([.character("t")], "show the feeds of one tag (an OPML import's folder), or all", .tags, hint: "tags"),
            .init([.character("?"), .function(1)], "this help", .help),
            .init([.escape], "back from search results, or clear the filter", .back),
            .init([.character("q")], "quit", .quit, hint: "quit"),
        ])

    public mutating func handle(_ key: KeyPress) -> [Command] {
        if entries != nil { return handleEntries(key) }
        if chrome.takes(key) { return [] }
        if menu != nil {
            chooseTag(key)
            return []
        }
        if list.isFiltering { return handleFilter(key) }
        if search != nil, let commands = handleSearch(key) { return commands }
        if case .click(let row, _) = key {
            return list.click(row: row) ? open() : []
        }
        switch Self.keys.action(for: key) {
        case .motion(let motion)?: list.move(motion)
        case .open?: return open()
        case .filter?:
            // A new filter starts empty, over every feed, as the entry list's does.
            search = nil
            _ = list.clearFilter()
            _ = list.handle(key)
        case .reload?:
            guard !refreshing else {
                chrome.notice = "already refreshing"
                return []
            }
            refreshing = true
            return [.refreshFeeds]
        case .nextUnread?: moveToUnread(forward: true)
        case .previousUnread?: moveToUnread(forward: false)
        case .markFeedRead?:
            guard let feed = selectedFeed else { return [] }
            guard feed.queryName == nil else {
                chrome.notice = "a query feed's entries are marked in their own feeds"
                return []
            }
            return markRead([feed.url])
        case .markAllRead?: return markRead(allFeeds.filter { $0.queryName == nil }.map(\.url))
        case .tags?:
            let tags = Array(Set(allFeeds.flatMap(\.tags))).sorted()
            guard !tags.isEmpty else {
                chrome.notice = "no feed has a tag (an OPML import's folders are tags)"
                return []
            }
            menu = Menu(title: "tags", entries: ["all feeds"] + tags)
        case .help?: chrome.openHelp(title: "feeds: keys", table: Self.keys)
        case .back?: _ = list.clearFilter()
        case .quit?: outcome = 0
        case nil: break
        }
        return []
    }

    /// `/` filters the feeds as each key is typed; Enter keeps the filter and searches every
    /// feed's entries for the same words too, the hits replacing the feeds until Esc.
    private mutating func handleFilter(_ key: KeyPress) -> [Command] {
        _ = list.handle(key)
        guard key == .enter else { return [] }
        let words = list.filter.text.split(whereSeparator: \.isWhitespace)
        guard !words.isEmpty else { return [] }
        var found = FeedSearch(query: words.joined(separator: " "))
        found.results.list.layout(chrome.body)
        search = found
        return [.search(found.query)]
    }

    /// Keys over search results: motion in the hits, Enter reads one in its feed, Esc goes back
    /// to the feeds the filter kept; nil for what the feed list does as usual (`/`, help, quit).
    private mutating func handleSearch(_ key: KeyPress) -> [Command]? {
        guard var found = search else { return nil }
        if case .click(let row, _) = key {
            let clicked = found.results.list.click(row: row)
            search = found
            return clicked ? read(found) : []
        }
        switch Self.keys.action(for: key) {
        case .motion(let motion)?:
            found.results.list.move(motion)
            search = found
        case .open?: return read(found)
        // Back to the feeds the filter kept; Esc there clears it.
        case .back?: search = nil
        case .filter?, .help?, .quit?: return nil
        // The feeds' own keys (marking, tags, unread moves) would act on feeds out of sight.
        default: break
        }
        return []
    }

    /// The selected hit read in its feed's entries, as if opened there: `q` goes back to that
    /// feed's list, and `q` again to the search results.
    private mutating func read(_ found: FeedSearch) -> [Command] {
        guard let (url, post) = found.selected, let feed = allFeeds.first(where: { $0.url.utf8.elementsEqual(url.utf8) }) else { return [] }
        var commands = open(feed)
        guard var browser = entries else { return commands }
        commands += wrap(browser.read(post))
        entries = browser
        return commands
    }

    /// `n` and `N`: the next (or previous) feed shown with unread entries, as newsboat moves.
    mutating func moveToUnread(forward: Bool) {
        let shown = list.shownItems
        let here = list.selection.flatMap { shown.firstIndex(of: $0) } ?? (forward ? -1 : shown.count)
        let order = forward ? Array(shown.indices.filter { $0 > here }) : shown.indices.filter { $0 < here }.reversed()
        guard let next = order.first(where: { feeds[shown[$0]].unread > 0 }) else {
            chrome.notice = forward ? "no unread feed below" : "no unread feed above"
            return
        }
        list.select(shown[next])
    }

    /// `A` and `C`: every entry of the feeds at `urls` marked read, their rows at 0 unread.
    mutating func markRead(_ urls: [String]) -> [Command] {
        guard !urls.isEmpty else { return [] }
        var rows = allFeeds
        for index in rows.indices where urls.contains(where: { $0.utf8.elementsEqual(rows[index].url.utf8) }) { rows[index].unread = 0 }
        show(rows)
        return [.markRead(urls)]
    }

    /// The tag menu's keys: a tag chosen shows its feeds alone, `all feeds` every feed.
    private mutating func chooseTag(_ key: KeyPress) {
        guard var open = menu else { return }
        switch open.handle(key) {
        case .open: menu = open
        case .closed: menu = nil
        case .chosen(let index):
            menu = nil
            tag = index == 0 ? nil : open.entries[index]
            show(allFeeds)
            _ = list.select(0)
        }
    }

    /// Opens the selected feed's entries: a `PostBrowser` of its own, laid out as this screen.
    mutating func open() -> [Command] {
        guard let feed = selectedFeed else { return [] }
        return open(feed)
    }

    mutating func open(_ feed: FeedRow) -> [Command] {
        if let name = feed.queryName {
            // Its entries are other feeds': listed as a search's hits are, each read in its feed.
            var entries = FeedSearch(queryFeed: name)
            entries.results.list.layout(chrome.body)
            search = entries
            let names = Dictionary(allFeeds.filter { $0.queryName == nil }.map { ($0.url, $0.name) }, uniquingKeysWith: { first, _ in first })
            return [.queryFeed(name, names: names)]
        }
        var browser = PostBrowser(server: ServerURL.redactedIfCredentials(feed.url), arrangement: arrangement)
        browser.heading = feed.name
        browser.postList.feed = (feed.name, feed.url, feed.tags)
        opening += 1
        openURL = feed.url
        _ = browser.resized(rows: chrome.rows, columns: chrome.columns)
        let commands = browser.start()
        entries = browser
        return wrap(commands)
    }

    /// Keys go to the open feed's entries; when it ends (q), the feed list is back, the feed's
    /// counts as the entries left them.
    mutating func handleEntries(_ key: KeyPress) -> [Command] {
        guard var browser = entries else { return [] }
        let commands = browser.handle(key)
        guard browser.outcome != nil else {
            entries = browser
            return wrap(commands)
        }
        let wrapped = wrap(commands)
        close(browser)
        return wrapped
    }

    private mutating func close(_ browser: PostBrowser) {
        arrangement = browser.postList.arrangement
        var rows = allFeeds
        if let openURL, let index = rows.firstIndex(where: { $0.url.utf8.elementsEqual(openURL.utf8) }), browser.postList.hasListing {
            rows[index].entries = browser.postList.posts.count
            rows[index].unread = browser.postList.unreadCount
            show(rows)
        }
        entries = nil
        openURL = nil
    }

    public mutating func receive(_ message: Message) -> [Command] {
        switch message {
        case .feeds(let rows, let stillRefreshing, let failed):
            refreshing = stillRefreshing
            show(rows)
            if let failed, failed > 0 {
                chrome.status.error = "\(failed) of \(rows.count) feeds failed (r retries)"
            } else if failed != nil {
                chrome.status.error = nil
            }
        case .said(let text):
            chrome.status.error = text
        case .markedRead(let failure):
            chrome.notice = failure.map { "not marked: " + $0.message }
        case .found(let query, let result, let urls):
            guard search?.query == query else { return [] }
            search?.found(result, urls: urls)
        case .entries(let from, let inner):
            guard from == opening, var browser = entries else { return [] }
            let commands = browser.receive(inner)
            entries = browser
            return wrap(commands)
        }
        return []
    }
}
