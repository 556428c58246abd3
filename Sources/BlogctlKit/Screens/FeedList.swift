import FoundationEssentials
import ScreenKit
import ToolboxKit
import BlogctlEngines

/// `blogctl ui` with subscriptions: newsboat's first screen. Every subscribed feed in one row
/// (unread and total entries, the last error), refreshed when the screen opens and with `r`;
/// Enter opens a feed's entries in a `PostBrowser`, which runs inside this screen as it runs
/// alone (its commands and messages wrapped, tagged with the opening they belong to); `q`
/// there comes back here, as in newsboat.
public struct FeedList: ScreenProgram {
    public enum Command: ScreenCommand, Equatable {
        /// The feeds as cached at once; then every feed asked and the rows again.
        case refreshFeeds
        /// Work of the open feed's `PostBrowser`, for the feed at `url`, opened `opening`th.
        case entries(url: String, opening: Int, PostBrowser.Command)
        /// Every entry of the feeds at these URLs marked read (`A`, `C`).
        case markRead([String])
        /// Every feed's entries searched for these words (`/`, then Enter).
        case search(String)
        /// The entries of the urls file's query feed of this name, each feed's named as in `names`.
        case queryFeed(String, names: [String: String])

        public var policy: CommandPolicy {
            switch self {
            case .refreshFeeds: return .latest("feeds")
            case .markRead: return .serial("marks")
            case .search, .queryFeed: return .latest("search")
            case .entries(_, _, let command):
                // The open feed's queues are its own; opening another feed takes them over
                // (a list still loading for the last one is cancelled by the next one's).
                switch command.policy {
                case .serial(let name): return .serial("entries." + name)
                case .latest(let name): return .latest("entries." + name)
                }
            }
        }
    }

    public enum Message: Sendable, Equatable {
        /// The rows; `refreshing` while the feeds are still being asked; `failed` after a refresh.
        case feeds([FeedRow], refreshing: Bool, failed: Int?)
        /// What a refresh says once, as `list` says it on stderr (a feed that moved).
        case said(String)
        case entries(opening: Int, PostBrowser.Message)
        case markedRead(ToolError?)
        /// What a search found, and the URL of each hit's feed.
        case found(query: String, Result<[SearchIndex.Hit], ToolError>, urls: [String])
    }

    /// The feeds shown: every subscription's, or the chosen tag's (`t`).
    public internal(set) var feeds: [FeedRow] = []
    /// Every subscription's row, whatever the tag.
    var allFeeds: [FeedRow] = []
    /// The tag whose feeds are shown, as newsboat's `t` chooses it; nil: every feed.
    public internal(set) var tag: String?
    /// The tag menu, while it is open.
    public internal(set) var menu: Menu?
    /// What a search of every feed found, shown in place of the feeds until Esc.
    var search: FeedSearch?
    public internal(set) var list = ListView()
    public internal(set) var chrome: Chrome
    public internal(set) var outcome: Int32?
    /// The open feed's entries, and the URL of the feed they are.
    public internal(set) var entries: PostBrowser?
    var openURL: String?
    /// Counts the feeds opened: what an earlier opening still sends is dropped.
    var opening = 0
    /// How entries are arranged: one choice for every feed, as `o` saved it.
    var arrangement: Arrangement
    var refreshing = false
    var hasFeeds = false

    public init(arrangement: Arrangement) {
        self.arrangement = arrangement
        chrome = Chrome(server: "subscriptions")
    }

    public var status: StatusLine { chrome.status }
    public var notice: String? { chrome.notice }
    public var isBusy: Bool { refreshing || entries?.isBusy == true || (search != nil && search?.results.hits == nil) }

    public mutating func start() -> [Command] {
        refreshing = true
        return [.refreshFeeds]
    }

    public mutating func tick() {
        chrome.advance()
        entries?.tick()
    }

    public mutating func resized(rows: Int, columns: Int) -> [Command] {
        chrome.resize(rows: rows, columns: columns)
        list.layout(chrome.body)
        guard var entries else { return [] }
        let commands = entries.resized(rows: rows, columns: columns)
        self.entries = entries
        return wrap(commands)
    }

    var selectedFeed: FeedRow? {
        guard let index = list.selection, index < feeds.count else { return nil }
        return feeds[index]
    }

    /// The open feed's commands, tagged with its URL and opening.
    func wrap(_ commands: [PostBrowser.Command]) -> [Command] {
        guard let openURL else { return [] }
        return commands.map { .entries(url: openURL, opening: opening, $0) }
    }

    /// The feed list's rows, the selection kept on the same feed (by URL).
    mutating func show(_ rows: [FeedRow]) {
        let selected = selectedFeed?.url
        allFeeds = rows
        let feeds = tag.map { tag in rows.filter { Subscription(url: $0.url, title: "", tags: $0.tags).has(tag: tag) } } ?? rows
        self.feeds = feeds
        hasFeeds = true
        list.setSections([ListView.Section(items: feeds.map(\.name))], searchText: { [feeds] in feeds[$0].name + "\n" + feeds[$0].url })
        // By bytes: two URLs that differ are two feeds, even where Unicode calls them equivalent.
        if let selected, let index = feeds.firstIndex(where: { $0.url.utf8.elementsEqual(selected.utf8) }) { _ = list.select(index) }
        chrome.status.counts = (tag.map { "tag " + $0 + " · " } ?? "") + "\(feeds.count) feeds · \(feeds.reduce(0) { $0 + $1.unread }) unread"
    }
}
