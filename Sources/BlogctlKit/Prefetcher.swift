import Synchronization
import ToolboxKit
import BlogctlEngines

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

    /// Every post of the server, in its order, each result handed to `report` as it is known:
    /// the API's asked for one by one (`run(_:)`); a feed's taken from the feed as it is read,
    /// fetched once and written into the library, each body stored unless the cache has it
    /// (asking the feed once per entry was quadratic: 5,000 entries did not end in a minute;
    /// holding them all held a feed of a million entries). `progress` sees (done, total) after
    /// each post; a feed's total is what has been read so far.
    public func run(warn: (String) -> Void, progress: @escaping @Sendable (Int, Int) -> Void,
                    report: @escaping @Sendable (Result) -> Void) async throws(ToolError) {
        let bodies = FeedBodies(cache: cache, maxSize: maxSize, progress: progress, report: report)
        guard let posts = try await client.prefetchListing(warn: warn, each: { bodies.take($0) }) else {
            return bodies.finish()
        }
        try? cache.saveListing(posts)
        for result in await run(posts, progress: progress) { report(result) }
    }

    /// A feed's entries as the listing is written, whose bodies are in hand: each stored unless
    /// the cache holds it under the same content tag (fresh) or it is larger than `maxSize`
    /// (skipped); stored a few hundred at a time, so that one batch is held, not the feed.
    final class FeedBodies: Sendable {
        let cache: PostCache
        let maxSize: Int
        let progress: @Sendable (Int, Int) -> Void
        let report: @Sendable (Result) -> Void
        private let state = Mutex<(batch: [(metadata: PostMetadata, body: [UInt8], etag: String?)], done: Int)>(([], 0))

        init(cache: PostCache, maxSize: Int, progress: @escaping @Sendable (Int, Int) -> Void,
             report: @escaping @Sendable (Result) -> Void) {
            self.cache = cache
            self.maxSize = maxSize
            self.progress = progress
            self.report = report
        }

        func take(_ entry: FeedEntry) {
            let tag = entry.contentTag
            let size = entry.body.utf8.count
            let result: Result
            var stored: (metadata: PostMetadata, body: [UInt8], etag: String?)?
            if let cached = cache.entry(entry.id), cached.etag == tag, cache.body(entry.id, entry: cached) != nil {
                result = Result(id: entry.id, outcome: .fresh, bytes: cached.size, detail: "")
            } else if size > maxSize {
                result = Result(id: entry.id, outcome: .skipped, bytes: size, detail: "larger than \(maxSize) bytes")
            } else {
                stored = (entry.metadata, Array(entry.body.utf8), tag)
                result = Result(id: entry.id, outcome: .fetched, bytes: size, detail: "")
            }
            let (full, done) = state.withLock { state -> ([(metadata: PostMetadata, body: [UInt8], etag: String?)]?, Int) in
                if let stored { state.batch.append(stored) }
                state.done += 1
                guard state.batch.count >= 256 else { return (nil, state.done) }
                defer { state.batch.removeAll(keepingCapacity: true) }
                return (state.batch, state.done)
            }
            if let full { cache.storeAll(full) }
            report(result)
            progress(done, done)
        }

        /// Stores what is left of the last batch.
        func finish() {
            cache.storeAll(state.withLock { state in
                defer { state.batch = [] }
                return state.batch
            })
            cache.evict()
        }
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
