#if canImport(Glibc)
import Glibc
#endif

/// A bounded first-in-first-out queue between two threads that may block (a `PosixThread` and
/// a Dispatch worker, never a task): `put` waits while `capacity` elements wait, `take` while
/// none does. On a POSIX mutex and condition, which ThreadSanitizer follows (it does not see
/// `Synchronization.Mutex`'s hand-over between threads, and reports the state it guards).
public final class HandoffQueue<Element: Sendable>: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let changed = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    // Guarded by `mutex`.
    private var waiting: [Element] = []
    private var cancelled = false
    private let capacity: Int

    public init(capacity: Int) {
        self.capacity = capacity
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(changed, nil)
    }

    deinit {
        pthread_cond_destroy(changed)
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
        changed.deallocate()
    }

    /// Adds `element` once there is room; false, at once, after `cancel` (it is dropped).
    /// `always`: added whatever the room and `cancel` (the last element, which says the end).
    @discardableResult
    public func put(_ element: Element, always: Bool = false) -> Bool {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while !always, !cancelled, waiting.count >= capacity { pthread_cond_wait(changed, mutex) }
        guard always || !cancelled else { return false }
        waiting.append(element)
        pthread_cond_broadcast(changed)
        return true
    }

    /// The first element, once there is one.
    public func take() -> Element {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while waiting.isEmpty { pthread_cond_wait(changed, mutex) }
        // At most `capacity` (and the end) wait: removing the first moves a handful.
        let element = waiting.removeFirst()
        pthread_cond_broadcast(changed)
        return element
    }

    /// The taker wants no more: `put` drops from now on, and one waiting for room returns.
    /// What waits already stays, to be taken (the end among it).
    public func cancel() {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        cancelled = true
        pthread_cond_broadcast(changed)
    }
}
