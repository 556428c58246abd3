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
    private let sleep: @Sendable (Double) async throws -> Void
    private let random: @Sendable () -> Double

    public init(store: DeviceStore, sender: any ChangeSender, jobs: Int = 4, retries: Int = 2,
                sleep: @escaping @Sendable (Double) async throws -> Void = RetryPolicy.taskSleep,
                random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }) {
        self.store = store
        self.sender = sender
        self.jobs = max(1, jobs)
        self.policy = RetryPolicy(retries: retries)
        self.sleep = sleep
        self.random = random
    }

    private enum Result: Sendable { case synced, rejected, remaining(String) }

    /// One round: claim what no live process is sending, send it, give back what is left.
    /// `progress` gets (done, total) after each change.
    public func runOnce(progress: @escaping @Sendable (Int, Int) -> Void = { _, _ in }) async throws(ToolError) -> SyncReport {
        let token = "\(getpid())-\(UInt64.random(in: 1...UInt64.max))"
        let (claims, elsewhere, damaged) = try await store.perform { store throws(ToolError) in try store.claim(token: token) }
        var report = SyncReport()
        report.heldElsewhere = elsewhere
        report.damaged = damaged
        progress(0, claims.count)
        var failure: ToolError?
        var done = 0
        // An error of the store stops further sends; those in flight still finish.
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
            return failure == nil
        }
        // Nothing above throws: what was not sent goes back, whatever happened.
        try? await store.perform { store throws(ToolError) in try store.release(token: token) }
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
            if report.remaining + report.heldElsewhere == 0 { return total }
            // A round that made progress starts the pauses over.
            if report.synced + report.rejected > 0 { round = 0 }
            let pause = max(0.2, pauses.delay(forRetry: round, unit: random()))
            onWait(report, pause)
            do { try await sleep(pause) } catch { throw .interrupted }
            round += 1
        }
    }

    /// A try that failed for a transient reason, already counted in the store.
    private struct TransientFailure: Error { let message: String }

    /// Sends one claimed change until it is through, rejected, or out of retries (`policy`).
    private func deliver(_ claim: DeviceStore.Claim) async -> Swift.Result<Result, ToolError> {
        do {
            // An interrupted pause is not an error: the change is sent once more or kept.
            let result = try await policy.run(isRetryable: { $0 is TransientFailure }, random: random,
                                              sleep: { try? await sleep($0) }) { _ -> Result in
                switch await sender.send(claim) {
                case .accepted:
                    try await store.perform { store throws(ToolError) in try store.markSynced(claim) }
                    return .synced
                case .rejected(let message):
                    try await store.perform { store throws(ToolError) in try store.markRejected(claim, message: message) }
                    return .rejected
                case .failed(let message):
                    try await store.perform { store throws(ToolError) in try store.recordFailedAttempt(claim, message: message) }
                    throw TransientFailure(message: message)
                }
            }
            return .success(result)
        } catch let failure as TransientFailure {
            return .success(.remaining(failure.message))
        } catch let error as ToolError {
            return .failure(error)
        } catch {
            return .failure(.bug(Terminal.sanitizeField(String(describing: error))))
        }
    }
}
