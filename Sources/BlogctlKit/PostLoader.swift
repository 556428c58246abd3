import ToolboxKit

/// Gets a post's body for `read`: from the cache when the server says it has not changed
/// (304), from the server otherwise (then cached), from the cache alone when offline.
public struct PostLoader: Sendable {
    public let cache: PostCache
    public let client: BlogClient?
    public let warn: @Sendable (String) -> Void

    /// Where the body came from, for `--verbose` and the tests.
    public enum Source: String, Sendable { case server, revalidated, cache }

    public struct Loaded: Sendable {
        public let metadata: PostMetadata
        public let body: PostBody
        public let source: Source
    }

    public init(cache: PostCache, client: BlogClient?, warn: @escaping @Sendable (String) -> Void = { _ in }) {
        self.cache = cache
        self.client = client
        self.warn = warn
    }

    /// Loads post `id`; `progress` sees the download, when there is one.
    public func load(_ id: String, progress: (@Sendable (Int64, Int64?) -> Void)? = nil) async throws(ToolError) -> Loaded {
        let id = try ResourceID.validate(id, kind: "post id")
        guard let client else { return try offline(id) }
        // A cached copy that fails its check is discarded here, so it is not revalidated.
        var cached: (entry: CacheEntry, body: PostBody)?
        if let entry = cache.entry(id) {
            if let body = cache.body(id, entry: entry) { cached = (entry, body) }
            else { warn("the cached copy of \(id) was damaged; fetching it again") }
        }
        do throws(ToolError) {
            let postId: String
            if let known = cached?.entry.metadata.postId { postId = known } else { postId = try await client.metadata(id).postId }
            let writer = try cache.bodyWriter()
            switch try await client.post(postId, etag: cached?.entry.etag, into: writer, progress: progress) {
            case .notModified:
                writer.abandon()
                if let cached { return Loaded(metadata: cached.entry.metadata, body: cached.body, source: .revalidated) }
                throw .protocolViolation(url: client.server.url("/post/" + ResourceID.pathSegment(postId)),
                                                  detail: "304 Not Modified to a request without If-None-Match")
            case .fetched(var metadata, let etag):
                metadata.id = id
                metadata.postId = postId
                // The body went network → compressor → cache file; it is rendered from there.
                let stored = try writer.commit(metadata, etag: etag)
                return Loaded(metadata: metadata, body: stored.body, source: .server)
            }
        } catch {
            // The server is out of reach but we hold a copy: show it, and say so.
            if let cached, APIClient.isTransient(error) {
                warn("\(error.message); showing the cached copy")
                return Loaded(metadata: cached.entry.metadata, body: cached.body, source: .cache)
            }
            throw error
        }
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
