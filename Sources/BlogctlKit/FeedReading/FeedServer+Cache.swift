import FoundationEssentials
import ToolboxKit

/// What a feed leaves in the server's cache: its entries' bodies, so that `read`, `search`,
/// `ui` and `--offline` find them as they find the API's posts.
extension FeedServer {
    /// How many of a feed's entries, the newest, have their bodies kept at each list. A file
    /// each, as every cached post: a feed of 100,000 entries would be 200,000 files made at
    /// every change. An older entry's body is fetched with the feed when it is read.
    static let keptAtList = 1000

    /// Keeps the newest posts' bodies in the cache, unless the copy there has the same content;
    /// all at once (`PostCache.storeAll`), as a feed's entries come hundreds at a time.
    func store(_ posts: [FeedEntry]) {
        guard let cache else { return }
        // Their places sorted, not the posts: a copy of 100,000 posts moved about by a sort
        // was a twentieth of such a feed's list. Equal dates keep the feed's order.
        let newest = posts.count <= Self.keptAtList ? Array(posts.indices) : Array(posts.indices.sorted { left, right in
            let (a, b) = (posts[left].date ?? .distantPast, posts[right].date ?? .distantPast)
            return a != b ? a > b : left < right
        }.prefix(Self.keptAtList))
        var changed: [(metadata: PostMetadata, body: [UInt8], etag: String?)] = []
        for post in newest.lazy.map({ posts[$0] }) {
            let tag = post.contentTag
            if let entry = cache.entry(post.id), entry.etag == tag {
                cache.markValidated(entry, durable: false)
                continue
            }
            changed.append((post.metadata, Array(post.body.utf8), tag))
        }
        cache.storeAll(changed)
        cache.evict()
    }
}
