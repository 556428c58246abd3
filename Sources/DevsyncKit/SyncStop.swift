import Synchronization

/// A request to stop a sync, as Esc on the sync screen makes it: no further change is
/// started and a pause before a retry ends early, while the requests in flight finish and
/// are recorded. What was not sent stays pending.
public final class SyncStop: Sendable {
    private struct State {
        var requested = false
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
        var nextWaiter = 0
    }

    private let state = Mutex(State())

    public init() {}

    public var isRequested: Bool { state.withLock { $0.requested } }

    public func request() {
        let waiters = state.withLock { state in
            state.requested = true
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// `sleep(seconds)`, cut short when a stop is requested meanwhile (or was before).
    func pause(_ seconds: Double, using sleep: @escaping @Sendable (Double) async throws -> Void) async {
        guard !isRequested else { return }
        await withTaskGroup(of: Void.self) { group in
            group.addTask { try? await sleep(seconds) }
            group.addTask { await self.waitForRequest() }
            await group.next()
            group.cancelAll()
        }
    }

    /// Returns when a stop is requested, or when the waiting task is cancelled.
    private func waitForRequest() async {
        let id = state.withLock { state in
            defer { state.nextWaiter += 1 }
            return state.nextWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                // Under the lock: a request or a cancellation either came before (resume now)
                // or will find the waiter registered (and resume it then).
                let now = state.withLock { state in
                    guard !state.requested, !Task.isCancelled else { return true }
                    state.waiters[id] = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
        }
    }
}
