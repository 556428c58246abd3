import ToolboxKit

/// `blogctl list` as one step: the read marks, the listing from the server (which the search
/// index and the saved listing learn), the filter and order applied, and the text for the output mode.
public struct ListRun: Sendable {
    public let filter: PostFilter
    public let ordering: PostOrdering
    public let mode: OutputMode

    public init(filter: PostFilter, ordering: PostOrdering, mode: OutputMode) {
        self.filter = filter
        self.ordering = ordering
        self.mode = mode
    }

    /// The listing as `list` prints it. Damaged read marks are an error only when they are
    /// needed to filter (`--unread`); otherwise a warning, and no marks are shown.
    /// The marks and the cache are the ones `environment` names, the cache `server`'s.
    /// With no client (`--offline`), the list the last `list` or `ui` saved from `server`.
    /// The text goes to `write` in pieces (`PostListing.render`): a pipe gets a long list
    /// without the whole text held.
    public func run(_ client: BlogClient?, server: ServerURL, environment: [String: String] = Environment.current,
                    write: (String) -> Void) async throws(ToolError) {
        var known: ReadMarks.IDs?
        do {
            known = try ReadMarks.standard(server: server, environment: environment).load()
        } catch {
            if filter.unreadOnly { throw error }
            Tool.blogctl.warn(error.message)
        }
        guard let client else {
            guard let saved = try PostCache.standard(server: server, environment: environment).savedListing() else {
                throw ToolError.missing("no saved list to show offline: blogctl list (online) saves one")
            }
            return render(consume saved, known: known, write: write)
        }
        // Nothing but the list is asked for: a feed's bodies are let go once the cache has them.
        let posts = try await client.metadataList(warn: { Tool.blogctl.warn($0) }, keepingBodies: false)
        // The saved listing (what `ui` and `--offline` open with, and what the search index
        // learns at the next search) is a copy: failing to write it is no error.
        try? PostCache.standard(server: server, environment: environment).saveListing(posts)
        render(consume posts, known: known, write: write)
        await client.settle()
    }

    private func render(_ posts: consuming [PostMetadata], known: ReadMarks.IDs?, write: (String) -> Void) {
        render(consume posts, isRead: known.map { known in { known.contains($0.id) } }, write: write)
    }

    /// `posts` filtered, arranged and rendered; `isRead` nil when no marks could be read. A list
    /// of every subscription comes here with each post's feed's marks.
    /// `posts` is consumed: once arranged, the list is let go before the text is made (the
    /// groups hold their own; 100,000 posts are 15 MB of list).
    public func render(_ posts: consuming [PostMetadata], isRead: ((PostMetadata) -> Bool)?) -> String {
        var text = ""
        render(consume posts, isRead: isRead) { text += $0 }
        return text
    }

    public func render(_ posts: consuming [PostMetadata], isRead: ((PostMetadata) -> Bool)?, write: (String) -> Void) {
        let kept = filter.keepsAll ? posts : posts.filter { filter.keeps($0, isRead: isRead?($0) ?? false) }
        let groups = filter.limited(ordering.arrange(consume kept))
        PostListing.render(groups, grouped: ordering.grouping != .none, mode: mode, isRead: isRead, write: write)
    }
}
