import ScreenKit
import ToolboxKit

extension FeedList {
    enum Action: Sendable, Equatable {
        case motion(Motion), open, filter, reload, help, back, quit
    }

    static let keys = KeyTable<Action>(
        Motion.bindings.map { .init($0.keys, $0.label, Action.motion($0.action)) } + [
            .init([.enter, .right], "the feed's entries (q there comes back here)", .open, hint: "entries"),
            .init([.character("/")], "filter the feeds by name or URL as you type", .filter, hint: "filter"),
            .init([.character("r")], "refresh every feed", .reload, hint: "refresh"),
            .init([.character("?"), .function(1)], "this help", .help),
            .init([.escape], "clear the filter (never quits)", .back),
            .init([.character("q")], "quit", .quit, hint: "quit"),
        ])

    public mutating func handle(_ key: KeyPress) -> [Command] {
        if entries != nil { return handleEntries(key) }
        if chrome.takes(key) { return [] }
        if list.isFiltering {
            _ = list.handle(key)
            return []
        }
        if case .click(let row, _) = key {
            return list.click(row: row) ? open() : []
        }
        switch Self.keys.action(for: key) {
        case .motion(let motion)?: list.move(motion)
        case .open?: return open()
        case .filter?: _ = list.handle(key)
        case .reload?:
            guard !refreshing else {
                chrome.notice = "already refreshing"
                return []
            }
            refreshing = true
            return [.refreshFeeds]
        case .help?: chrome.openHelp(title: "feeds: keys", table: Self.keys)
        case .back?: _ = list.clearFilter()
        case .quit?: outcome = 0
        case nil: break
        }
        return []
    }

    /// Opens the selected feed's entries: a `PostBrowser` of its own, laid out as this screen.
    mutating func open() -> [Command] {
        guard let feed = selectedFeed else { return [] }
        var browser = PostBrowser(server: ServerURL.redactedIfCredentials(feed.url), arrangement: arrangement)
        browser.heading = feed.name
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
        if let openURL, let index = feeds.firstIndex(where: { $0.url.utf8.elementsEqual(openURL.utf8) }), browser.postList.hasListing {
            feeds[index].entries = browser.postList.posts.count
            feeds[index].unread = browser.postList.unreadCount
            show(feeds)
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
        case .entries(let from, let inner):
            guard from == opening, var browser = entries else { return [] }
            let commands = browser.receive(inner)
            entries = browser
            return wrap(commands)
        }
        return []
    }
}
