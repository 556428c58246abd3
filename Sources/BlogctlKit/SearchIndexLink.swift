import Synchronization
import ToolboxKit

/// One connection to a search index for the caches' own updates (store, evict, clear), one per
/// index file in the process, opened at first use and kept, used by one job at a time under a
/// lock. A connection per stored body read the index's pages anew each time, and concurrent
/// jobs on connections of their own waited for each other in SQLite's busy handler, which
/// sleeps: 29 s to prefetch 1,000 posts. Other processes are still kept apart by SQLite's own
/// locking and busy timeout.
final class SearchIndexLink: Sendable {
    private struct Open {
        let index: SearchIndex
        /// The sources whose bodies are known to be in it (`PostCache.takeInBodies`).
        var filled: Set<String> = []
    }

    private let open = Mutex<Open?>(nil)

    private static let links = Mutex<[String: SearchIndexLink]>([:])

    /// The link to the index at `path`, the same for every cache of the process.
    static func shared(_ path: String) -> SearchIndexLink {
        links.withLock { links in
            if let link = links[path] { return link }
            let link = SearchIndexLink()
            links[path] = link
            return link
        }
    }

    /// Runs `update` on the index of `cache`, opening it first (and filling it with the cache's
    /// bodies when it has not taken them in). Best effort: the index is a copy, and any failure
    /// leaves it for the next search or `cache reindex` to rebuild, so errors are dropped here.
    func withIndex(_ cache: PostCache, _ update: (SearchIndex) throws(ToolError) -> Void) {
        open.withLock { open in
            do {
                if open == nil {
                    try LocalFile.privateDirectory(cache.indexFolder)
                    open = Open(index: try SearchIndex(path: cache.indexPath))
                }
                guard var current = open else { return }
                if !current.filled.contains(cache.indexSource) {
                    try cache.takeInBodies(current.index)
                    current.filled.insert(cache.indexSource)
                    open = current
                }
                try update(current.index)
            } catch {
                // A failed write may mean damage or a file replaced meanwhile: open anew next time.
                open = nil
            }
        }
    }
}
