import ScreenKit
import ToolboxKit

/// `blogctl ui`: the Blog Nerd Ranch app as a reader. The list shows every post in two rows
/// (title, author, date; the summary), arranged by the `o` menu; Enter reads a post in a
/// `PostReader`; `/` searches the index; `U` shows only unread posts; `P` prefetches. Pure
/// state: keys and arriving data change it, `Command`s ask for the network, the cache, the
/// marks and the browser.
public struct PostBrowser: ScreenProgram {
    /// What the screen asks its work for, and what the work answers (`PostBrowserWork`).
    public typealias Command = PostBrowserCommand
    public typealias Message = PostBrowserMessage

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
