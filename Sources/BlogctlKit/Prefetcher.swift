import ToolboxKit

/// Warms the cache: at most `jobs` posts at a time, each asked for with HEAD first so that
/// a body whose ETag matches the cached one, or one larger than `maxSize`, is not downloaded.
public struct Prefetcher: Sendable {
    public enum Outcome: String, Codable, CaseIterable, Sendable { case fetched, fresh, skipped, failed }

    public struct Result: Codable, Sendable {
        public let id: String
        public let outcome: Outcome
        /// Bytes of the body (fetched or fresh), or the size that made it skipped.
        public let bytes: Int
        public let detail: String
        /// The subscribed feed the post is from, when every subscription is prefetched.
        public var feed: String? = nil
    }

    public let cache: PostCache
    public let client: BlogClient
    public let jobs: Int
    public let maxSize: Int

    public init(cache: PostCache, client: BlogClient, jobs: Int, maxSize: Int) {
        self.cache = cache
        self.client = client
        self.jobs = max(jobs, 1)
        self.maxSize = maxSize
    }

    /// Every post of the server, in its order: the API's asked for one by one (`run(_:)`); a
    /// feed's taken from the feed, fetched once, each body stored unless the cache has it
    /// (asking the feed once per entry was quadratic: 5,000 entries did not end in a minute).
    /// The listing is saved too. `progress` sees (done, total) after each post.
    public func run(warn: (String) -> Void, progress: @escaping @Sendable (Int, Int) -> Void) async throws(ToolError) -> [Result] {
        switch try await client.prefetchable(warn: warn) {
        case .listing(let posts):
            try? cache.saveListing(posts)
            return await run(posts, progress: progress)
        case .entries(let entries):
            try? cache.saveListing(entries.map(\.metadata))
            return store(entries, progress: progress)
        }
    }

    /// A feed's entries, whose bodies are in hand: each stored unless the cache holds it
    /// under the same content tag (fresh) or it is larger than `maxSize` (skipped).
    func store(_ entries: [FeedEntry], progress: @escaping @Sendable (Int, Int) -> Void) -> [Result] {
        var results: [Result] = []
        results.reserveCapacity(entries.count)
        var batch: [(metadata: PostMetadata, body: [UInt8], etag: String?)] = []
        for (done, entry) in entries.enumerated() {
            let tag = entry.contentTag
            let size = entry.body.utf8.count
            if let cached = cache.entry(entry.id), cached.etag == tag, cache.body(entry.id, entry: cached) != nil {
                results.append(Result(id: entry.id, outcome: .fresh, bytes: cached.size, detail: ""))
            } else if size > maxSize {
                results.append(Result(id: entry.id, outcome: .skipped, bytes: size, detail: "larger than \(maxSize) bytes"))
            } else {
                batch.append((entry.metadata, Array(entry.body.utf8), tag))
                results.append(Result(id: entry.id, outcome: .fetched, bytes: size, detail: ""))
            }
            // Stored a few hundred at a time: one body of each is held, not the feed's twice.
            if batch.count >= 256 {
                cache.storeAll(batch)
                batch.removeAll(keepingCapacity: true)
            }
            progress(done + 1, entries.count)
        }
        cache.storeAll(batch)
        cache.evict()
        return results
    }

    /// Results in the order of `posts`; `progress` sees (done, total) after each post.
    public func run(_ posts: [PostMetadata], progress: @escaping @Sendable (Int, Int) -> Void) async -> [Result] {
        let results = await TaskWindow.map(posts, width: jobs, progress: progress) { await self.prefetch($0) }
        // Once, not after each of possibly thousands of stores.
        cache.evict()
        return results
    }

    func prefetch(_ metadata: PostMetadata) async -> Result {
        do throws(ToolError) {
            let head = try await client.postHead(metadata.postId)
            if let entry = cache.entry(metadata.id), let etag = head.etag, entry.etag == etag,
               cache.body(metadata.id, entry: entry) != nil {
                return Result(id: metadata.id, outcome: .fresh, bytes: entry.size, detail: "")
            }
            if let size = head.size, size > maxSize {
                return Result(id: metadata.id, outcome: .skipped, bytes: size, detail: "larger than \(maxSize) bytes")
            }
            let writer = try cache.bodyWriter()
            switch try await client.post(metadata.postId, etag: nil, into: writer) {
            case .notModified:
                writer.abandon()
                return Result(id: metadata.id, outcome: .failed, bytes: 0, detail: "304 to an unconditional request")
            case .fetched(var stored, let etag):
                stored.id = metadata.id
                stored.postId = metadata.postId
                let entry = try writer.commit(stored, etag: etag, evicting: false).entry
                return Result(id: metadata.id, outcome: .fetched, bytes: entry.size, detail: "")
            }
        } catch {
            return Result(id: metadata.id, outcome: .failed, bytes: 0, detail: error.message)
        }
    }
}
