#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import ToolboxKit

/// The sync button: sends every pending change, up to `jobs` at once, retrying transient
/// failures with exponential backoff and full jitter; a rejection is kept, never dropped.
/// The store holds the queue, so a crash at any point loses nothing: an unconfirmed change
/// is simply sent again, and sending the full intended value twice is harmless.
public struct SyncEngine: Sendable {
    public let store: DeviceStore
    public let sender: any ChangeSender
    public let jobs: Int
    public let policy: RetryPolicy
    /// Changes whose device the server changed while they waited are left pending, for the
    /// installer to resolve (the sync screen asks; `devsync sync` sends them, the local value winning).
    public let holdsConflicts: Bool
    /// Esc on the sync screen: nothing more is started, pauses end, what is in flight finishes.
    public let stop: SyncStop
    /// Every change's state as it happens (the sync screen's rows).
    private let observe: @Sendable (SyncEvent) -> Void
    private let sleep: @Sendable (Double) async throws -> Void
    private let random: @Sendable () -> Double

    public init(store: DeviceStore, sender: any ChangeSender, jobs: Int = 4, retries: Int = 2,
                sleep: @escaping @Sendable (Double) async throws -> Void = RetryPolicy.taskSleep,
                random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
                holdsConflicts: Bool = false, stop: SyncStop = SyncStop(),
                observe: @escaping @Sendable (SyncEvent) -> Void = { _ in }) {
        self.store = store
        self.sender = sender
        self.jobs = max(1, jobs)
        self.policy = RetryPolicy(retries: retries)
        self.sleep = sleep
        self.random = random
        self.holdsConflicts = holdsConflicts
        self.stop = stop
        self.observe = observe
    }

    private enum Result: Sendable { case synced, rejected, remaining(String) }

    /// One round: claim what no live process is sending, send it, give back what is left.
    /// `progress` gets (done, total) after each change.
    public func runOnce(progress: @escaping @Sendable (Int, Int) -> Void = { _, _ in }) async throws(ToolError) -> SyncReport {
        let token = "\(getpid())-\(UInt64.random(in: 1...UInt64.max))"
        let (claims, elsewhere, damaged) = try await store.perform { store throws(ToolError) in try store.queue.claim(token: token, holdingConflicts: holdsConflicts) }
        observe(.claimed(claims.map(\.deviceID), heldElsewhere: elsewhere))
        var report = SyncReport()
        report.heldElsewhere = elsewhere
        report.damaged = damaged
        progress(0, claims.count)
        var failure: ToolError?
        var done = 0
        // An error of the store, or a stop, starts no further send; those in flight still finish.
        await TaskWindow.run(claims, width: jobs, work: { await self.deliver($0) }) { _, outcome in
            done += 1
            switch outcome {
            case .success(.synced): report.synced += 1
            case .success(.rejected): report.rejected += 1
            case .success(.remaining(let message)):
                report.remaining += 1
                report.lastError = message
            case .failure(let error):
                failure = failure ?? error
            }
            progress(done, claims.count)
            return failure == nil && !stop.isRequested
        }
        // Claims a stop (or a store error) left unstarted are kept for later too.
        report.remaining += claims.count - done
        // Nothing above throws: what was not sent goes back, whatever happened.
        try? await store.perform { store throws(ToolError) in try store.queue.release(token: token) }
        if let failure { throw failure }
        return report
    }

    /// `--wait`: rounds with growing pauses until nothing transient is left.
    public func runUntilDone(progress: @escaping @Sendable (Int, Int) -> Void = { _, _ in },
                             onWait: @Sendable (SyncReport, Double) -> Void = { _, _ in }) async throws(ToolError) -> SyncReport {
        var total = SyncReport()
        let pauses = RetryPolicy(retries: Int.max, baseDelay: 1, maxDelay: 60)
        var round = 0
        while true {
            let report = try await runOnce(progress: progress)
            total.synced += report.synced
            total.rejected += report.rejected
            total.remaining = report.remaining
            total.heldElsewhere = report.heldElsewhere
            total.lastError = report.lastError ?? total.lastError
            total.damaged = report.damaged
            if report.remaining + report.heldElsewhere == 0 || stop.isRequested { return total }
            // A round that made progress starts the pauses over.
            if report.synced + report.rejected > 0 { round = 0 }
            let pause = max(0.2, pauses.delay(forRetry: round, unit: random()))
            onWait(report, pause)
            do { try await sleep(pause) } catch { throw .interrupted }
            if stop.isRequested { return total }
            round += 1
        }
    }

    /// A try that failed for a transient reason, already counted in the store.
    private struct TransientFailure: Error { let message: String }

    /// Sends one claimed change until it is through, rejected, or out of retries (`policy`);
    /// a stop ends it before its next try.
    private func deliver(_ claim: SyncQueue.Claim) async -> Swift.Result<Result, ToolError> {
        let id = claim.deviceID
        do {
            let result = try await policy.run(
                isRetryable: { $0 is TransientFailure && !stop.isRequested }, random: random,
                // An interrupted pause is not an error: the change is sent once more or kept.
                sleep: { await stop.pause($0, using: sleep) },
                onRetry: { retry, error, seconds in
                    observe(.waiting(id, retry: retry, seconds: seconds, error: (error as? TransientFailure)?.message ?? ""))
                }
            ) { attempt -> Result in
                guard !stop.isRequested else { throw TransientFailure(message: "stopped before sending") }
                observe(.sending(id, attempt: attempt + 1))
                switch await sender.send(claim) {
                case .accepted:
                    try await store.perform { [sender] store throws(ToolError) in try store.queue.markSynced(claim, sentTo: sender.server) }
                    observe(.synced(id))
                    return .synced
                case .rejected(let message):
                    try await store.perform { store throws(ToolError) in try store.queue.markRejected(claim, message: message) }
                    observe(.rejected(id, message: message))
                    return .rejected
                case .failed(let message):
                    try await store.perform { store throws(ToolError) in try store.queue.recordFailedAttempt(claim, message: message) }
                    throw TransientFailure(message: message)
                }
            }
            return .success(result)
        } catch let failure as TransientFailure {
            observe(.kept(id, message: failure.message))
            return .success(.remaining(failure.message))
        } catch let error as ToolError {
            return .failure(error)
        } catch {
            return .failure(.bug(Terminal.sanitizeField(String(describing: error))))
        }
    }
}
