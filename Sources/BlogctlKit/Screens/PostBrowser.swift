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
            }
        }
    }

    /// A post's body as the reading pane shows it: laid out, in a file (`SpooledText`), so
    /// that a post of any size costs the screen a window of lines, not the whole.
    public struct PostText: Sendable, Equatable {
        public var metadata: PostMetadata
        public var text: SpooledText
        public var links: [String]
        /// Shown from the cache because the server could not be reached.
        public var offline: Bool

        public init(metadata: PostMetadata, text: SpooledText, links: [String], offline: Bool = false) {
            self.metadata = metadata
            self.text = text
            self.links = links
            self.offline = offline
        }

        /// Lines spooled to a temporary file (tests, small texts).
        public init(metadata: PostMetadata, lines: [String], links: [String], offline: Bool = false) throws(ToolError) {
            self.init(metadata: metadata, text: try SpooledText.of(lines), links: links, offline: offline)
        }

        public static func == (left: PostText, right: PostText) -> Bool {
            left.metadata == right.metadata && left.text === right.text && left.links == right.links && left.offline == right.offline
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
    }

    enum ListAction: Sendable, Equatable {
        case motion(Motion), open, arrange, search, unreadOnly, toggleRead, prefetch, reload, help, quit, back
    }

    static let listKeys = KeyTable<ListAction>(
        Motion.bindings.map { ($0.keys, $0.label, ListAction.motion($0.action)) } + [
            ([.enter, .right], "read the post", .open),
            ([.character("o")], "arrange: group and sort (remembered)", .arrange),
            ([.character("/")], "search titles, authors, summaries and cached posts", .search),
            ([.character("U")], "only unread posts, or all", .unreadOnly),
            ([.character("u")], "mark read or unread", .toggleRead),
            ([.character("P")], "prefetch every post body in the background", .prefetch),
            ([.character("r")], "reload the list from the server", .reload),
            ([.character("?")], "this help", .help),
            ([.escape], "back from search results (nothing else on this first screen)", .back),
            ([.character("q")], "quit", .quit),
        ])

    /// Every post as listed, the marks, and how they are arranged.
    public internal(set) var posts: [PostMetadata] = []
    public internal(set) var read: ReadMarks.IDs = []
    public internal(set) var arrangement: Arrangement
    public internal(set) var unreadOnly = false
    /// The posts in display order: `list`'s items.
    public internal(set) var shown: [PostMetadata] = []
    public internal(set) var list = ListView(linesPerItem: 2)
    /// Search results, when they replace the list.
    public internal(set) var results: SearchResults?
    /// The search prompt while it is open.
    public internal(set) var searchField: TextField?
    public internal(set) var reader: PostReader?
    /// Where the open post sits in the list or results, for `]` and `[`.
    var readingIndex = 0
    public internal(set) var menu: Menu?
    public internal(set) var status = StatusLine()
    public internal(set) var showsHelp = false
    public internal(set) var outcome: Int32?
    public internal(set) var notice: String?
    var loadingList = true
    var hasListing = false
    /// The list shown is the saved one: the server could not give its own.
    var showsSavedList = false
    var prefetching: (done: Int, total: Int)?
    /// The marks changed in this session, in order.
    var markedHere: [(String, Bool)] = []
    /// Counted when the marks change, not at every frame.
    var unreadCount = 0
    var frame = 0
    /// The reading pane's width at the last draw, which bodies are laid out for.
    var paneWidth = 78
    var listRect = Rect(row: 0, column: 0, rows: 0, columns: 0)

    public init(server: String, arrangement: Arrangement) {
        self.arrangement = arrangement
        status.server = server
    }

    public var isBusy: Bool { loadingList || reader?.isLoading == true || prefetching != nil }

    public mutating func start() -> [Command] { [.loadList] }

    public mutating func tick() { frame += 1 }

    public mutating func handle(_ key: KeyPress) -> [Command] {
        if showsHelp {
            showsHelp = false
            return []
        }
        notice = nil
        if reader != nil { return handleReader(key) }
        if menu != nil { return handleMenu(key) }
        if searchField != nil { return handleSearchField(key) }
        if case .click(let row, _) = key {
            var clicked = false
            let rect = listRect
            setCurrentList { clicked = $0.click(row: row, in: rect) }
            return clicked ? open() : []
        }
        switch Self.listKeys.action(for: key) {
        case .motion(let motion)?: setCurrentList { $0.move(motion) }
        case .open?: return open()
        case .arrange?: menu = Menu(title: "arrange", entries: Arrangement.menuEntries)
        // A new search starts empty, as less's and newsboat's prompts do.
        case .search?: searchField = TextField(label: "search:")
        case .unreadOnly?:
            unreadOnly.toggle()
            arrange()
        case .toggleRead?:
            guard let post = selectedPost else { return [] }
            return toggleRead(post.id)
        case .prefetch?: return prefetch()
        case .reload?:
            loadingList = true
            return [.loadList]
        case .help?: showsHelp = true
        case .quit?: outcome = 0
        case .back?: results = nil
        case nil: break
        }
        return []
    }

    private mutating func handleMenu(_ key: KeyPress) -> [Command] {
        guard var menu else { return [] }
        switch menu.handle(key) {
        case .open: self.menu = menu
        case .closed: self.menu = nil
        case .chosen(let entry):
            self.menu = nil
            arrangement = arrangement.choosing(entry)
            arrange()
            return [.saveArrangement(arrangement)]
        }
        return []
    }

    private mutating func handleSearchField(_ key: KeyPress) -> [Command] {
        guard var field = searchField else { return [] }
        switch key {
        case .escape: searchField = nil
        case .enter:
            searchField = nil
            let words = field.text.split(whereSeparator: \.isWhitespace)
            guard !words.isEmpty else {
                results = nil
                return []
            }
            results = SearchResults(query: words.joined(separator: " "))
            return [.search(results!.query)]
        default:
            _ = field.handle(key)
            searchField = field
        }
        return []
    }

    /// The posts the list or the search results show, in order, for `]` and `[`.
    var readingOrder: [PostMetadata] { results?.posts ?? shown }

    var currentList: ListView { results?.list ?? list }

    mutating func setCurrentList(_ change: (inout ListView) -> Void) {
        if results != nil { change(&results!.list) } else { change(&list) }
    }

    var selectedPost: PostMetadata? {
        guard let index = currentList.selection else { return nil }
        let order = readingOrder
        return index < order.count ? order[index] : nil
    }

    private mutating func open() -> [Command] {
        guard let index = currentList.selection, index < readingOrder.count else { return [] }
        return open(at: index)
    }

    /// Opens the post at `index` of the reading order, marking it read.
    mutating func open(at index: Int) -> [Command] {
        let post = readingOrder[index]
        readingIndex = index
        setCurrentList { $0.select(index) }
        reader = PostReader(metadata: post)
        var commands: [Command] = [.openPost(id: post.id, width: paneWidth)]
        if !read.contains(post.id) {
            setRead(post.id, true)
            commands.append(.mark(ids: [post.id], read: true))
        }
        return commands
    }

    mutating func toggleRead(_ id: String) -> [Command] {
        let isRead = read.contains(id)
        setRead(id, !isRead)
        notice = isRead ? "marked unread" : "marked read"
        return [.mark(ids: [id], read: !isRead)]
    }

    /// Marks `id` here at once; the file follows through a `.mark` command.
    mutating func setRead(_ id: String, _ isRead: Bool) {
        markedHere.append((id, isRead))
        takeMarks(read)
    }

    /// Marks read from the file, with this session's changes on top (the file may have been
    /// read before they were written), and the unread posts counted again.
    mutating func takeMarks(_ marks: ReadMarks.IDs) {
        read = marks
        for (id, isRead) in markedHere {
            if isRead { read.insert([id]) } else { read.remove([id]) }
        }
        unreadCount = posts.count { !read.contains($0.id) }
    }

    private mutating func prefetch() -> [Command] {
        guard prefetching == nil else {
            notice = "already prefetching"
            return []
        }
        guard !posts.isEmpty else { return [] }
        prefetching = (0, posts.count)
        return [.prefetch(posts)]
    }

    /// Orders `posts` by the arrangement (and the unread filter) into the list's sections.
    mutating func arrange() {
        unreadCount = posts.count { !read.contains($0.id) }  // the posts themselves may be new
        let kept = unreadOnly ? posts.filter { !read.contains($0.id) } : posts
        let groups = arrangement.ordering.arrange(kept)
        let selected = selectedPost?.id
        shown = groups.flatMap(\.posts)
        let grouped = arrangement.grouping != .none
        list.setSections(groups.map { group in
            ListView.Section(title: grouped ? " \(group.name) (\(group.posts.count))" : nil, items: group.posts.map(\.title))
        })
        if let selected, let index = shown.firstIndex(where: { $0.id.utf8.elementsEqual(selected.utf8) }) { list.select(index) }
    }

    public mutating func resized(rows: Int, columns: Int) -> [Command] {
        paneWidth = Self.paneWidth(columns: columns)
        guard let reader, reader.load == .loaded else { return [] }
        return [.render(id: reader.metadata.id, width: paneWidth)]
    }

    /// Bodies are laid out one column in from each side, within what the renderer accepts.
    static func paneWidth(columns: Int) -> Int { min(max(columns - 2, 20), 1000) }
}
