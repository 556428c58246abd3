import Synchronization
import FoundationEssentials
import ToolboxKit
import BlogctlEngines

/// What a feed leaves in the server's cache: its entries' bodies, so that `read`, `search`,
/// `ui` and `--offline` find them as they find the API's posts.
final class FeedBodyKeeper: Sendable {
    /// The server's cache; nil when it cannot be used (the feed is then fetched each time).
    let cache: PostCache?
    /// Bodies being stored beside the caller's work (`storeBeside`), for `settle`.
    private let storing = Mutex<[Task<Void, Never>]>([])

    init(cache: PostCache?) { self.cache = cache }

    /// How many of a feed's entries, the newest, have their bodies kept at each list. A file
    /// each, as every cached post: a feed of 100,000 entries would be 200,000 files made at
    /// every change. An older entry's body is fetched with the feed when it is read.
    static let keptAtList = 1000

    /// Keeps the newest posts' bodies in the cache, unless the copy there has the same content;
    /// all at once (`PostCache.storeAll`), as a feed's entries come hundreds at a time.
    func store(_ posts: [FeedEntry]) {
        guard cache != nil else { return }
        store(newest: Self.newest(posts))
    }

    /// `store`, beside the caller's own work (`list` saving its listing and making its text,
    /// on the other core): only the newest entries are held for it, and `settle` waits for it.
    func storeBeside(_ posts: [FeedEntry]) {
        storeBeside(newest: Self.newest(posts))
    }

    /// `storeBeside` of posts already chosen (`NewestEntries`).
    func storeBeside(newest: [FeedEntry]) {
        guard cache != nil else { return }
        let task = Task.detached { self.store(newest: newest) }
        storing.withLock { $0.append(task) }
    }

    /// Waits for what `storeBeside` started.
    func settle() async {
        let started = storing.withLock { tasks in
            defer { tasks = [] }
            return tasks
        }
        for task in started { await task.value }
    }

    /// The `keptAtList` newest posts, newest first; equal dates keep the feed's order.
    static func newest(_ posts: [FeedEntry]) -> [FeedEntry] {
        guard posts.count > keptAtList else { return posts }
        var newest = NewestEntries(capacity: keptAtList)
        for (position, post) in posts.enumerated() { newest.offer(post, position: position) }
        return newest.sorted()
    }

    private func store(newest: [FeedEntry]) {
        guard let cache else { return }
        var changed: [(metadata: PostMetadata, body: [UInt8], etag: String?)] = []
        for post in newest {
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
