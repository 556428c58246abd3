import Synchronization
import Testing
@testable import CoreKit
@testable import ToolboxKit

@Suite struct RetryPolicyTests {
    final class Counter: Sendable {
        let value = Mutex(0)
        func next() -> Int { value.withLock { $0 += 1; return $0 } }
        var count: Int { value.withLock { $0 } }
    }

    final class Sleeps: Sendable {
        let values = Mutex<[Double]>([])
        func record(_ seconds: Double) { values.withLock { $0.append(seconds) } }
        var all: [Double] { values.withLock { $0 } }
    }

    let refused = ToolError.unreachable(url: "http://127.0.0.1:1", reason: "connection refused")

    @Test func retriesStopAfterTheLimit() async {
        let attempts = Counter()
        let sleeps = Sleeps()
        let policy = RetryPolicy(retries: 3)
        await #expect(throws: refused) {
            try await policy.run(isRetryable: { NetworkFailure.isTransient($0 as! ToolError) },
                                 random: { 0.5 }, sleep: { sleeps.record($0) }) { _ -> Int in
                _ = attempts.next()
                throw refused
            }
        }
        #expect(attempts.count == 4)
        #expect(sleeps.all.count == 3)
    }

    @Test func neverRetriesA4xx() async {
        let attempts = Counter()
        let notFound = ToolError.httpStatus(url: "http://x/y", status: 404, message: "")
        await #expect(throws: notFound) {
            try await RetryPolicy(retries: 5).run(isRetryable: { NetworkFailure.isTransient($0 as! ToolError) },
                                                 sleep: { _ in }) { _ -> Int in
                _ = attempts.next()
                throw notFound
            }
        }
        #expect(attempts.count == 1)
    }

    @Test func retries5xxThenSucceeds() async throws {
        let attempts = Counter()
        let result = try await RetryPolicy(retries: 2).run(
            isRetryable: { NetworkFailure.isTransient($0 as! ToolError) }, sleep: { _ in }
        ) { attempt -> String in
            _ = attempts.next()
            if attempt < 2 { throw ToolError.httpStatus(url: "u", status: 503, message: "") }
            return "ok"
        }
        #expect(result == "ok")
        #expect(attempts.count == 3)
    }

    @Test func backoffDoublesUpToTheCapWithFullJitter() {
        let policy = RetryPolicy(retries: 10, baseDelay: 0.25, maxDelay: 2)
        #expect(policy.ceiling(forRetry: 0) == 0.25)
        #expect(policy.ceiling(forRetry: 1) == 0.5)
        #expect(policy.ceiling(forRetry: 2) == 1)
        #expect(policy.ceiling(forRetry: 3) == 2)
        #expect(policy.ceiling(forRetry: 9) == 2)
        #expect(policy.delay(forRetry: 2, unit: 0) == 0)
        #expect(policy.delay(forRetry: 2, unit: 0.5) == 0.5)
        #expect(policy.delay(forRetry: 2, unit: 1) == 1)
    }

    @Test func zeroRetriesMeansOneAttempt() async {
        let attempts = Counter()
        await #expect(throws: refused) {
            try await RetryPolicy(retries: 0).run(isRetryable: { _ in true }, sleep: { _ in }) { _ -> Int in
                _ = attempts.next()
                throw refused
            }
        }
        #expect(attempts.count == 1)
    }

    @Test func transientClassification() {
        #expect(NetworkFailure.isTransient(.timedOut(url: "u", seconds: 1)))
        #expect(NetworkFailure.isTransient(.httpStatus(url: "u", status: 500, message: "")))
        #expect(!NetworkFailure.isTransient(.httpStatus(url: "u", status: 400, message: "")))
        #expect(!NetworkFailure.isTransient(.httpStatus(url: "u", status: 499, message: "")))
        #expect(!NetworkFailure.isTransient(.protocolViolation(url: "u", detail: "")))
        #expect(!NetworkFailure.isTransient(.interrupted))
    }
}
