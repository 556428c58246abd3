#if canImport(Glibc)
import Glibc
#endif
import ToolboxKit

/// One refresh of a library at a time, across processes (`blogctl list` twice, or `list`
/// beside `ui`): an flock on `refresh.lock` beside the library, held while this value lives. Not
/// on the library file itself: closing a second descriptor of it would drop SQLite's own locks.
/// SQLite alone would serialize the writes, but two refreshes would ask every feed twice and
/// write each listing twice; the second waits instead, says so once, and finds the first's
/// answers (a 304 for each feed).
public final class RefreshLock: Sendable {
    private let descriptor: Int32

    private init(descriptor: Int32) { self.descriptor = descriptor }

    deinit { close(descriptor) }

    /// Takes the lock of `library`, waiting for another holder; `waiting` is called once when
    /// it must wait. nil when the lock file cannot be opened: the refresh goes on unguarded,
    /// SQLite's own locks still keeping the library whole.
    public static func take(_ library: Library, waiting: () -> Void) async -> RefreshLock? {
        let path = library.folder + "/refresh.lock"
        let descriptor = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return nil }
        var said = false
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else {
                close(descriptor)
                return nil
            }
            if !said {
                said = true
                waiting()
            }
            // Polled, not blocked on: a blocking flock would hold one of the few threads
            // every task of the process shares.
            try? await Task.sleep(for: .milliseconds(50))
        }
        return RefreshLock(descriptor: descriptor)
    }
}
