import ScreenKit
import ToolboxKit

/// `blogctl ui`: the Blog Nerd Ranch app as a reader. The list shows every post in two rows
/// (title, author, date; the summary), arranged by the `o` menu; Enter reads a post in a
/// `PostReader`; `/` searches the index; `U` shows only unread posts; `P` prefetches. Pure
/// state: keys and arriving data change it, `Command`s ask for the network, the cache, the
/// marks and the browser.
public struct PostBrowser: ScreenProgram {
    public enum Command: ScreenCommand, Equatable {
        /// The saved listing at once, then the server's.
        case loadList
        case openPost(id: String, width: Int)
        /// Back on the list: a download still running is cancelled.
        case stopLoading
        /// The open post laid out again for a new width, from the cache.
        case render(id: String, width: Int)
        case mark(ids: [String], read: Bool)
        case search(String)
        case openLink(String)
        case prefetch([PostMetadata])
        case saveArrangement(Arrangement)
        /// The post's files queued, and the queue fetched (`blogctl download`).
        case download(PostMetadata)

        public var policy: CommandPolicy {
            switch self {
            case .loadList: .latest("list")
            case .openPost, .stopLoading: .latest("post")
            case .render: .latest("render")
            case .mark: .serial("marks")
            case .search: .latest("search")
            case .openLink: .serial("browser")
            case .prefetch: .latest("prefetch")
            case .saveArrangement: .serial("state")
            case .download: .serial("downloads")
            }
        }
    }

    public enum Message: Sendable, Equatable {
        /// A listing, from the saved copy or the server, and the read marks (nil: unreadable).
        case listing([PostMetadata], read: ReadMarks.IDs?, fromServer: Bool)
        case listFailed(ToolError)
        case progress(id: String, done: Int64, total: Int64?, seconds: Double)
        case post(id: String, Result<PostText, ToolError>)
        case rendered(id: String, width: Int, PostText)
        /// The post shown from the cache could not be checked: the server is out of reach.
        case cachedOnly(id: String)
        case marked(ToolError?)
        case found(query: String, Result<[SearchIndex.Hit], ToolError>)
        case opened(url: String, ToolError?)
        case prefetchProgress(done: Int, total: Int)
        case prefetched(fetched: Int, failed: Int, firstFailure: String?)
        case downloadProgress(name: String, done: Int64, total: Int64?)
        /// A queued file is whole at `path`, or failed (it stays queued).
        case downloaded(path: String, ToolError?)
    }

    /// Every post as listed, the marks over them and their arrangement: the list of posts.
    public internal(set) var postList: PostList
    /// Search results, when they replace the list.
    public internal(set) var results: SearchResults?
    public internal(set) var reader: PostReader?
    /// Where the open post sits in the list or results, for `]` and `[`.
    var readingIndex = 0
    public internal(set) var menu: Menu?
    public internal(set) var chrome: Chrome
    public internal(set) var outcome: Int32?
    var loadingList = true
    /// The list shown is the saved one: the server could not give its own.
    var showsSavedList = false
    var prefetching: (done: Int, total: Int)?
    /// What the list is called in the title: the posts, or the feed they come from.
    var heading = "posts"

    public init(server: String, arrangement: Arrangement) {
        postList = PostList(arrangement: arrangement)
        chrome = Chrome(server: server)
    }

    public var status: StatusLine { chrome.status }
    public var notice: String? { chrome.notice }
    public var showsHelp: Bool { chrome.help != nil }
    /// The reading pane's width, which bodies are laid out for.
    var paneWidth: Int { Self.paneWidth(columns: chrome.columns) }

    public var isBusy: Bool { loadingList || reader?.isLoading == true || prefetching != nil }

    public mutating func start() -> [Command] { [.loadList] }

    public mutating func tick() { chrome.advance() }

    /// The posts the list or the search results show, in order, for `]` and `[`.
    var readingOrder: PickedItems<PostMetadata> { results.map { PickedItems($0.posts) } ?? postList.shown }

    var currentList: ListView { results?.list ?? postList.list }

    mutating func setCurrentList(_ change: (inout ListView) -> Void) {
        if results != nil { change(&results!.list) } else { change(&postList.list) }
    }

    var selectedPost: PostMetadata? {
        guard let index = currentList.selection else { return nil }
        let order = readingOrder
        return index < order.count ? order[index] : nil
    }

    public mutating func resized(rows: Int, columns: Int) -> [Command] {
        chrome.resize(rows: rows, columns: columns)
        postList.list.layout(chrome.body)
        results?.list.layout(chrome.body)
        reader?.layout(chrome.inset)
        guard let reader, reader.load == .loaded else { return [] }
        return [.render(id: reader.metadata.id, width: paneWidth)]
    }

    /// Bodies are laid out one column in from each side, within what the renderer accepts.
    static func paneWidth(columns: Int) -> Int { min(max(columns - 2, 20), 1000) }
}
