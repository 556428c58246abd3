import ScreenKit
import ToolboxKit

extension PostBrowser {
    typealias ListAction = PostListKeys.Action
    static var listKeys: KeyTable<ListAction> { PostListKeys.table }

    public mutating func handle(_ key: KeyPress) -> [Command] {
        if chrome.takes(key) { return [] }
        if reader != nil { return handleReader(key) }
        if menu != nil { return handleMenu(key) }
        if postList.list.isFiltering { return handleFilter(key) }
        if postList.expressionField != nil {
            if let said = postList.editExpression(key) { chrome.notice = said }
            return []
        }
        if case .click(let row, _) = key {
            var clicked = false
            setCurrentList { clicked = $0.click(row: row) }
            return clicked ? open() : []
        }
        switch Self.listKeys.action(for: key) {
        case .motion(let motion)?: setCurrentList { $0.move(motion) }
        case .open?: return open()
        case .arrange?: menu = Menu(title: "arrange", entries: Arrangement.menuEntries)
        // A new filter starts empty, as less's and newsboat's prompts do, and over all posts.
        case .filter?:
            guard postList.hasListing else {
                chrome.notice = "nothing to filter yet: the list has not come"
                return []
            }
            results = nil
            _ = postList.list.clearFilter()
            _ = postList.list.handle(key)
        case .expression?:
            results = nil
            postList.editExpression()
        case .unreadOnly?: postList.toggleUnreadOnly()
        case .toggleRead?:
            guard let post = selectedPost else { return [] }
            return toggleRead(post.id)
        case .nextUnread?: moveToUnread(forward: true)
        case .previousUnread?: moveToUnread(forward: false)
        case .markAllRead?:
            let ids = readingOrder.map(\.id).filter { !postList.read.contains($0) }
            guard !ids.isEmpty else {
                chrome.notice = "every post here is read"
                return []
            }
            postList.setRead(ids)
            chrome.notice = "marked \(ids.count) read"
            return [.mark(ids: ids, read: true)]
        case .prefetch?: return prefetch()
        case .reload?:
            loadingList = true
            return [.loadList]
        case .help?: chrome.openHelp(title: "posts: keys", table: Self.listKeys)
        case .quit?: outcome = 0
        // From search results, Esc goes back to all the posts, as the footer says: the
        // filter that led to the search goes too.
        case .back?:
            // Layer by layer: the search results and the typed filter, then the expression.
            if results == nil && postList.list.filterLabel == nil, let said = postList.setExpression("") { chrome.notice = said }
            results = nil
            _ = postList.list.clearFilter()
        case nil: break
        }
        return []
    }

    /// `/` filters the list as each key is typed; Enter keeps the filter and searches the
    /// cached bodies for the same words too (the index), the hits replacing the list until Esc.
    private mutating func handleFilter(_ key: KeyPress) -> [Command] {
        _ = postList.list.handle(key)
        guard key == .enter else { return [] }
        let words = postList.list.filter.text.split(whereSeparator: \.isWhitespace)
        guard !words.isEmpty else { return [] }
        var found = SearchResults(query: words.joined(separator: " "))
        found.list.layout(chrome.body)
        results = found
        return [.search(found.query)]
    }

    private mutating func handleMenu(_ key: KeyPress) -> [Command] {
        guard var menu else { return [] }
        switch menu.handle(key) {
        case .open: self.menu = menu
        case .closed: self.menu = nil
        case .chosen(let entry):
            self.menu = nil
            postList.choose(entry)
            return [.saveArrangement(postList.arrangement)]
        }
        return []
    }

    /// Keys while a post is open: the pane's own, then what they ask of the browser.
    mutating func handleReader(_ key: KeyPress) -> [Command] {
        guard var reader else { return [] }
        let reply = reader.handle(key)
        self.reader = reader
        switch reply {
        case .handled, .ignored: return []
        case .back:
            self.reader = nil
            return reader.isLoading ? [.stopLoading] : []
        case .help: chrome.openHelp(title: "reading: keys", table: PostReader.keys, disabled: reader.disabledReason)
        case .quit: outcome = 0
        case .request(let request): return readerRequest(request, reader: reader)
        }
        return []
    }

    private mutating func readerRequest(_ request: PostReader.Request, reader: PostReader) -> [Command] {
        switch request {
        case .next, .previous:
            let index = readingIndex + (request == .next ? 1 : -1)
            guard index >= 0, index < readingOrder.count else {
                chrome.notice = request == .next ? "this is the last post" : "this is the first post"
                return []
            }
            return open(at: index)
        case .toggleRead: return toggleRead(reader.metadata.id)
        case .reload:
            self.reader?.reloading()
            return [.openPost(id: reader.metadata.id, width: paneWidth)]
        case .openLink(let url):
            guard BrowserLauncher.isOpenable(url) else {
                chrome.notice = "not opened: only http and https links are"
                return []
            }
            chrome.notice = "opening " + url
            return [.openLink(url)]
        case .download(let post):
            chrome.notice = "downloading the files of " + post.title + " (blogctl download resumes them after a quit)"
            return [.download(post)]
        }
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
        var reader = PostReader(metadata: post)
        reader.layout(chrome.inset)
        self.reader = reader
        var commands: [Command] = [.openPost(id: post.id, width: paneWidth)]
        if !postList.read.contains(post.id) {
            postList.setRead(post.id, true)
            commands.append(.mark(ids: [post.id], read: true))
        }
        return commands
    }

    /// Opens `post` (a hit another screen found) whether or not the list holds it yet,
    /// marking it read.
    mutating func read(_ post: PostMetadata) -> [Command] {
        readingIndex = readingOrder.firstIndex { $0.id.utf8.elementsEqual(post.id.utf8) } ?? 0
        var reader = PostReader(metadata: post)
        reader.layout(chrome.inset)
        self.reader = reader
        postList.setRead(post.id, true)
        return [.openPost(id: post.id, width: paneWidth), .mark(ids: [post.id], read: true)]
    }

    /// `n` and `N`: the next (or previous) unread post of the list in view, as newsboat moves.
    private mutating func moveToUnread(forward: Bool) {
        let order = readingOrder
        let shown = currentList.shownItems
        let here = currentList.selection.flatMap { shown.firstIndex(of: $0) } ?? (forward ? -1 : shown.count)
        let candidates = forward ? Array(shown.indices.filter { $0 > here }) : shown.indices.filter { $0 < here }.reversed()
        guard let next = candidates.first(where: { shown[$0] < order.count && !postList.read.contains(order[shown[$0]].id) }) else {
            chrome.notice = forward ? "no unread post below" : "no unread post above"
            return
        }
        setCurrentList { $0.select(shown[next]) }
    }

    mutating func toggleRead(_ id: String) -> [Command] {
        let isRead = postList.read.contains(id)
        postList.setRead(id, !isRead)
        chrome.notice = isRead ? "marked unread" : "marked read"
        return [.mark(ids: [id], read: !isRead)]
    }

    private mutating func prefetch() -> [Command] {
        guard prefetching == nil else {
            chrome.notice = "already prefetching"
            return []
        }
        let posts = postList.posts
        guard !posts.isEmpty else { return [] }
        prefetching = (0, posts.count)
        return [.prefetch(posts)]
    }
}
