import ToolboxKit

/// Gets a post's body for `read`: from the cache when the server says it has not changed
/// (304), from the server otherwise (then cached), from the cache alone when offline.
public struct PostLoader: Sendable {
    public let cache: PostCache
    public let client: BlogClient?
    public let warn: @Sendable (String) -> Void

    /// Where the body came from, for `--verbose` and the tests: `fresh` is a cached copy young
    /// enough to show without asking (`maxAge`).
    public enum Source: String, Sendable { case server, revalidated, fresh, cache }

    /// How long a cached copy is shown without asking the server, as an HTTP cache's max-age
    /// (man page, `--max-age`): 5 minutes unless said otherwise; 0 always asks.
    public static let defaultMaxAge: Double = 300
    public var maxAge: Double = PostLoader.defaultMaxAge
    /// A body fetched now is indexed by the caller's own parse (`Loaded.indexer`), not here
    /// before it is shown: for `read` and the screen, which lay it out at once.
    public var indexesAsRendered = false

    public struct Loaded {
        public let metadata: PostMetadata
        public let body: PostBody
        public let source: Source
        /// A body just stored and not yet indexed: hand it to the renderer
        /// (`PostPage.render(…, indexing:)`), then `finish` it (dropped, it indexes itself).
        public var indexer: PostCache.BodyIndexer? = nil
    }

    public init(cache: PostCache, client: BlogClient?, maxAge: Double = PostLoader.defaultMaxAge,
                warn: @escaping @Sendable (String) -> Void = { _ in }) {
        self.cache = cache
        self.client = client
        self.maxAge = maxAge
        self.warn = warn
    }

    /// Loads post `id`; `progress` sees the download, when there is one. `listedPostId`: the
    /// post id the caller already read from the saved listing (else it is read here).
    public func load(_ id: String, listedPostId: String? = nil,
                     progress: (@Sendable (Int64, Int64?) -> Void)? = nil) async throws(ToolError) -> Loaded {
        let id = try ResourceID.validate(id, kind: "post id")
        guard let client else { return try offline(id) }
        // A cached copy that fails its check is discarded here, so it is not revalidated.
        var cached: (entry: CacheEntry, body: PostBody)?
        if let entry = cache.entry(id) {
            if let body = cache.body(id, entry: entry) { cached = (entry, body) }
            else { warn("the cached copy of \(id) was damaged; fetching it again") }
        }
        if let cached, isFresh(cached.entry) || cache.isFeed { return Loaded(metadata: cached.entry.metadata, body: cached.body, source: .fresh) }
        do throws(ToolError) {
            // The post id from the cached copy, else from the saved listing (`list` wrote it),
            // else from the server: one request, not two, once the posts were listed.
            let postId: String
            if let known = cached?.entry.metadata.postId ?? listedPostId ?? self.listedPostId(id) { postId = known }
            else { postId = try await client.metadata(id).postId }
            let writer = try cache.bodyWriter()
            switch try await client.post(postId, etag: cached?.entry.etag, into: writer, progress: progress) {
            case .notModified:
                writer.abandon()
                if let cached {
                    cache.markValidated(cached.entry)
                    return Loaded(metadata: cached.entry.metadata, body: cached.body, source: .revalidated)
                }
                throw .protocolViolation(url: client.server.url("/post/" + ResourceID.pathSegment(postId)),
                                                  detail: "304 Not Modified to a request without If-None-Match")
            case .fetched(var metadata, let etag):
                metadata.id = id
                metadata.postId = postId
                // The body went network → compressor → cache file; it is rendered from there.
                let stored = try writer.commit(metadata, etag: etag, indexing: !indexesAsRendered)
                let indexer = indexesAsRendered ? PostCache.BodyIndexer(cache: cache, metadata: metadata, body: stored.body) : nil
                return Loaded(metadata: metadata, body: stored.body, source: .server, indexer: indexer)
            }
        } catch {
            // The server is out of reach but we hold a copy: show it, and say so.
            if let cached, NetworkFailure.isTransient(error) {
                warn("\(error.message); showing the cached copy")
                return Loaded(metadata: cached.entry.metadata, body: cached.body, source: .cache)
            }
            throw error
        }
    }

    /// Young enough to be shown at once, as the screen shows it, without a round trip: the
    /// server stood by it less than `maxAge` ago (a clock set back counts as old). A feed's
    /// entry is never asked for alone (a feed serves no single entry): a list refresh brings
    /// its changes, so its cached body is always shown as it is.
    func isFresh(_ entry: CacheEntry) -> Bool { maxAge > 0 && entry.age >= 0 && entry.age < maxAge }

    /// Post `id` from the cache when it is fresh (checked); nil otherwise, with nothing asked
    /// of any server: a caller may look before it connects at all.
    public func fresh(_ id: String) -> Loaded? {
        guard let entry = cache.entry(id), isFresh(entry) || cache.isFeed else { return nil }
        guard let body = cache.body(id, entry: entry) else {
            warn("the cached copy of \(id) was damaged; fetching it again")
            return nil
        }
        return Loaded(metadata: entry.metadata, body: body, source: .fresh)
    }

    /// The post id the saved listing gives `id`; nil when there is none or it is damaged.
    func listedPostId(_ id: String) -> String? {
        guard let listing = try? cache.savedListing() else { return nil }
        return listing.first { $0.id.utf8.elementsEqual(id.utf8) }?.postId
    }

    func offline(_ id: String) throws(ToolError) -> Loaded {
        guard let entry = cache.find(id) else {
            throw .missing("post \(id) is not in the cache; read it once online, or run blogctl prefetch")
        }
        guard let body = cache.body(entry.metadata.id, entry: entry) else {
            throw .missing("the cached copy of post \(id) was damaged and has been removed; read it online to fetch it again")
        }
        return Loaded(metadata: entry.metadata, body: body, source: .cache)
    }
}
