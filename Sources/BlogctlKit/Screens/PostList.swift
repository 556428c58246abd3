import ScreenKit
import ToolboxKit

/// `blogctl ui`'s list of posts, a child screen of `PostBrowser` (as `SearchResults` and
/// `PostReader` are): every post as listed, the read marks over them, and the arrangement
/// (the `o` menu, the unread-only view) that orders them into the list's sections.
public struct PostList: Sendable {
    public private(set) var posts: [PostMetadata] = []
    public private(set) var read: ReadMarks.IDs = []
    public private(set) var arrangement: Arrangement
    public private(set) var unreadOnly = false
    /// The posts in display order: `list`'s items.
    public private(set) var shown = PickedItems<PostMetadata>()
    public internal(set) var list = ListView(linesPerItem: 2)
    /// A listing has come (saved or from the server).
    private(set) var hasListing = false
    /// The marks changed in this session, in order.
    private var markedHere: [(String, Bool)] = []
    /// Counted when the marks change, not at every frame.
    private(set) var unreadCount = 0
    /// newsboat's `F`: the expression of the filter language (blogctl(1), FILTERS) whose posts
    /// alone are shown, as typed.
    public private(set) var expression: (text: String, parsed: FilterExpression)?
    /// The `F` prompt, while it is open.
    public private(set) var expressionField: TextField?
    /// What the filter language's `feedtitle`, `feedurl` and `tags` are in this list.
    var feed = (title: "", url: "", tags: [String]())

    init(arrangement: Arrangement) { self.arrangement = arrangement }

    /// A listing arrived: shown in the arrangement, the cursor kept on the same post.
    mutating func show(_ posts: [PostMetadata], marks: ReadMarks.IDs?) {
        self.posts = posts
        if let marks { takeMarks(marks) }
        hasListing = true
        arrange()
    }

    /// Marks `id` here at once; the file follows through a `.mark` command.
    mutating func setRead(_ id: String, _ isRead: Bool) {
        markedHere.append((id, isRead))
        takeMarks(read)
    }

    /// Every post of `ids` read (`A`), counted once.
    mutating func setRead(_ ids: [String]) {
        markedHere.append(contentsOf: ids.map { ($0, true) })
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

    mutating func toggleUnreadOnly() {
        unreadOnly.toggle()
        arrange()
    }

    /// The `o` menu's entry `entry` chosen.
    mutating func choose(_ entry: Int) {
        arrangement = arrangement.choosing(entry)
        arrange()
    }

    /// Orders `posts` by the arrangement (and the unread filter) into the list's sections.
    mutating func arrange() {
        unreadCount = posts.count { !read.contains($0.id) }  // the posts themselves may be new
        let posts = posts
        // One matcher for the whole list: it compiles the expression's patterns.
        let matcher = expression.map { FilterMatcher($0.parsed) }
        let kept = unreadOnly || matcher != nil ? posts.indices.filter { keeps($0, matcher) } : nil
        let groups = arrangement.ordering.arrangePositions(posts, among: kept)
        let selected = list.selection.flatMap { $0 < self.shown.count ? self.shown[$0].id : nil }
        shown = PickedItems(posts, positions: groups.flatMap(\.positions))
        let grouped = arrangement.grouping != .none
        let shown = shown
        // The filter (/) finds a post by its title, author or summary.
        list.setSections(groups.map { group in
            ListView.Section(title: grouped ? " \(group.name) (\(group.positions.count))" : nil, items: group.positions.map { posts[$0].title })
        }, searchText: { shown[$0].title + "\n" + shown[$0].author.name + "\n" + shown[$0].summary })
        if let selected, let index = shown.firstIndex(where: { $0.id.utf8.elementsEqual(selected.utf8) }) { list.select(index) }
    }

    /// What the status line counts: the filters in force, the posts shown, the unread.
    var counts: String {
        let filtered = list.filterLabel != nil || expression != nil
        let shownCount = filtered ? "\(list.filterLabel == nil ? shown.count : list.shownCount) of \(posts.count) posts" : "\(posts.count) posts"
        return [expression.map { "F " + Terminal.quote($0.text, limit: 30) }, list.filterLabel, shownCount,
                unreadOnly ? "unread only" : nil, "\(unreadCount) unread"].compactMap { $0 }.joined(separator: " · ")
    }

    /// Whether the post at `position` passes the unread-only view and the expression.
    private func keeps(_ position: Int, _ matcher: FilterMatcher?) -> Bool {
        let isRead = read.contains(posts[position].id)
        if unreadOnly && isRead { return false }
        guard let matcher else { return true }
        return matcher.matches(FilterSubject(post: posts[position], read: isRead, feedTitle: feed.title, feedURL: feed.url, tags: feed.tags))
    }

    /// `F`: the prompt opens with the expression in force.
    mutating func editExpression() { expressionField = TextField(label: "filter:", text: expression?.text ?? "") }

    /// A key while the prompt is open: Enter applies what it holds (nothing: no filter), Esc
    /// leaves the filter as it was. Returns what to say: why an expression does not parse
    /// (its column, as `list --filter` says it), or that the filter went.
    mutating func editExpression(_ key: KeyPress) -> String? {
        guard var field = expressionField else { return nil }
        switch key {
        case .escape: expressionField = nil
        case .enter:
            expressionField = nil
            return setExpression(field.text)
        default:
            _ = field.handle(key)
            expressionField = field
        }
        return nil
    }

    mutating func setExpression(_ text: String) -> String? {
        guard text.contains(where: { !$0.isWhitespace }) else {
            guard expression != nil else { return nil }
            expression = nil
            arrange()
            return "the filter is cleared"
        }
        do throws(ToolError) {
            expression = (text, try FilterExpression.parse(text))
            arrange()
            return nil
        } catch {
            return "not filtered: " + error.message
        }
    }

    /// The posts in two rows each, or why there are none (`loading`: the list is on its way).
    func draw(into canvas: inout Canvas, rect: Rect, loading: Bool, tick: Int) {
        if !hasListing {
            let text = loading ? Spinner.frame(tick) + " loading the posts…" : "no posts: the server cannot be reached and none are saved"
            canvas.put(" " + text, row: rect.row, column: 0, width: rect.columns)
            return
        }
        let shown = self.shown
        let read = self.read
        let wide = rect.columns >= 80
        list.draw(into: &canvas) { canvas, index, line, row, column, width in
            let post = shown[index]
            let isRead = read.contains(post.id)
            if line == 0 {
                let date = wide ? DateDisplay.human(post.publishDate) : String(DateDisplay.human(post.publishDate).prefix(10))
                Self.drawEntry(into: &canvas, row: row, column: column, width: width, mark: isRead ? " " : "•",
                               title: post.title, right: post.author.name.isEmpty ? date
                                   : TextWidth.truncate(post.author.name, to: max(width / 4, 8)) + " · " + date, bold: !isRead)
            } else {
                canvas.put("   " + post.summary, row: row, column: column, width: width, style: .dim)
            }
        }
    }

    /// " • Title ……… Author · 2018-08-23 10:15": the right part whole, the title cut to fit.
    static func drawEntry(into canvas: inout Canvas, row: Int, column: Int, width: Int, mark: String,
                          title: String, right: String, bold: Bool) {
        let rightWidth = min(TextWidth.of(Terminal.sanitizeField(right)), max(width - 12, 0))
        canvas.put(" " + mark + " ", row: row, column: column, width: width, style: .bold)
        canvas.put(title, row: row, column: column + 3, width: max(width - 3 - rightWidth - 3, 0), style: bold ? .bold : .plain)
        canvas.put(right, row: row, column: column + width - rightWidth - 1, width: rightWidth, style: .plain)
    }
}
