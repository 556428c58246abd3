import Synchronization
import ToolboxKit

/// One connection to the search index for the cache's own updates (store, evict, clear),
/// opened at first use and kept, used by one job at a time under a lock. A connection per
/// stored body read the index's pages anew each time, and concurrent prefetch jobs waited for
/// each other in SQLite's busy handler, which sleeps: 29 s to prefetch 1,000 posts.
/// Other processes are still kept apart by SQLite's own locking and busy timeout.
final class SearchIndexLink: Sendable {
    private let index = Mutex<SearchIndex?>(nil)

    /// Runs `update` on the index of `cache`, opening it first (and filling it from the cache
    /// when it is new). Best effort: the index is a copy, and any failure leaves it for the
    /// next search or `cache reindex` to rebuild, so errors are dropped here.
    func withIndex(_ cache: PostCache, _ update: (SearchIndex) throws(ToolError) -> Void) {
        index.withLock { open in
            if open == nil { open = try? cache.searchIndex() }
            guard let current = open else { return }
            do {
                try update(current)
            } catch {
                // A failed write may mean damage or a file replaced meanwhile: open anew next time.
                open = nil
            }
        }
    }
}
