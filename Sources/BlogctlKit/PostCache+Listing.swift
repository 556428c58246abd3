import FoundationEssentials
import ToolboxKit

/// The server's listing, kept in the library (`Library`): what `blogctl ui` opens with at once,
/// and all there is when the server cannot be reached. `list` and `ui` save it each time the
/// server answers.
extension PostCache {
    /// The library the listing is kept in, and the server it is of.
    func library() throws(ToolError) -> (Library, ServerURL) {
        guard let owner else { throw .missing("no library for a cache made on a bare folder") }
        return (try Library.standard(environment: owner.environment), owner.server)
    }

    /// Keeps `posts` as the server's listing, in one transaction; a feed's entries that left
    /// it stay in the library (up to the configured `max-items`).
    public func saveListing(_ posts: [PostMetadata]) throws(ToolError) {
        let (library, server) = try library()
        try library.saveListing(posts, server: server, maxItems: Settings.current.integer(.maxItems))
    }

    /// Whether the server is known to be a feed (its entries are then refreshed with its list,
    /// never one at a time).
    public var isFeed: Bool {
        guard let (library, server) = try? library() else { return false }
        return ((try? library.source(server)) ?? nil)?.kind == .feed
    }

    /// What the library keeps of the server; nil when no listing was saved yet.
    public func savedListing() throws(ToolError) -> [PostMetadata]? {
        let (library, server) = try library()
        return try library.listing(server)
    }
}

extension PostCache {
    /// The post `id` names, as git takes a short hash (issue 47): `id` itself when it is
    /// cached or listed, or when the saved listing has no post that starts with it (the
    /// server decides); the one listed post it starts; an error naming the candidates when
    /// it starts several. With it, the post id the listing gives it (nil: ask the server), so
    /// that the listing is read once for both.
    public func lookUp(_ id: String) throws(ToolError) -> (id: String, postId: String?) {
        guard entry(id) == nil, let listing = try? savedListing() else { return (id, nil) }
        if let listed = listing.first(where: { $0.id.utf8.elementsEqual(id.utf8) }) { return (id, listed.postId) }
        let ids = listing.map(\.id)
        guard ids.contains(where: { $0.utf8.starts(with: id.utf8) }) else { return (id, nil) }
        let resolved = try IDPrefix.resolve(id, among: ids, kind: "post", listing: "blogctl list")
        return (resolved, listing.first { $0.id.utf8.elementsEqual(resolved.utf8) }?.postId)
    }

    public func resolvedID(_ id: String) throws(ToolError) -> String { try lookUp(id).id }
}
