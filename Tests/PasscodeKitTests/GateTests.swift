import Synchronization
import Glibc
import Testing
@testable import PasscodeKit
import ToolboxKit

/// A server that always answers code 1234 with the keypad 0–9, or always fails.
struct FixedSource: InternalsSource {
    var failure: ToolError?
    var calls: CallCount? = nil
    func fetch(_ deliver: @escaping @Sendable (Arrival) async -> Void) async throws(ToolError) {
        calls?.count.withLock { $0 += 1 }
        if let failure { throw failure }
        await deliver(.code("1234"))
        await deliver(.setup(Array(0...9)))
    }
}

final class CallCount: Sendable { let count = Mutex(0) }

/// `--once` in script mode: the gate's outcomes, and their statuses.
@Suite struct GateTests {
    /// Runs script mode over `input` (through a pipe, left open when `keepOpen`).
    func run(_ input: String, gate: GateOptions, source: FixedSource = FixedSource(), keepOpen: Bool = false) async throws -> (GateOutcome, [String]) {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        _ = LocalFile.writeAll(fds[1], Array(input.utf8))
        if !keepOpen { close(fds[1]) }
        defer {
            close(fds[0])
            if keepOpen { close(fds[1]) }
        }
        let lines = Mutex<[String]>([])
        let outcome = try await ScriptRunner.run(source: source, input: fds[0], maxFailures: 1, gate: gate) { line in
            lines.withLock { $0.append(line) }
        }
        return (outcome, lines.withLock { $0 })
    }

    @Test func theFirstUnlockEndsTheRun() async throws {
        let (outcome, lines) = try await run("9\n9\n9\n9\n1\n2\n3\n4\n5\n", gate: GateOptions(once: true))
        #expect(outcome == .unlocked && outcome.exitStatus == 0)
        #expect(lines.contains("rejected") && lines.contains("unlocked"))
    }

    @Test func cancelOnAnEmptyCodeAndTheEndOfInputRefuse() async throws {
        let (cancelled, _) = try await run("7\ncancel\ncancel\n1\n2\n3\n4\n", gate: GateOptions(once: true))
        #expect(cancelled == .cancelled && cancelled.exitStatus == 1)
        let (ended, _) = try await run("1\n2\n", gate: GateOptions(once: true))
        #expect(ended == .cancelled)
        // Without --once the end of the input is simply the end: 0.
        let (plain, _) = try await run("1\n2\n", gate: GateOptions())
        #expect(plain == .quit && plain.exitStatus == 0)
    }

    @Test func anIdleInputTimesOutWith124() async throws {
        let (outcome, _) = try await run("1\n", gate: GateOptions(once: true, idleTimeout: 0.05), keepOpen: true)
        #expect(outcome == .timedOut && outcome.exitStatus == 124)
    }

    @Test func aFailingServerGivesUpWithItsStatus() async {
        do {
            _ = try await run("1\n", gate: GateOptions(once: true), source: FixedSource(failure: .unreachable(url: "u", reason: "refused")))
            Issue.record("expected the run to give up")
        } catch let error as ToolError {
            #expect(error.exitStatus == .unavailable)
            #expect(GateOutcome.gaveUp(error).exitStatus == 69)
        } catch {
            Issue.record("\(error)")
        }
    }

    @Test func refusedCredentialsAreNotRetried() async {
        let calls = CallCount()
        let source = FixedSource(failure: .credentialsRefused(url: "u"), calls: calls)
        do {
            _ = try await run("1\n", gate: GateOptions(once: true), source: source)
            Issue.record("expected the run to give up")
        } catch let error as ToolError {
            #expect(error == .credentialsRefused(url: "u"))
            #expect(GateOutcome.gaveUp(error).exitStatus == 77)
        } catch {
            Issue.record("\(error)")
        }
        // One call: a 4xx says the same the second time.
        #expect(calls.count.withLock { $0 } == 1)
    }
}
