import FoundationEssentials
import Synchronization
import Testing
@testable import DevsyncKit
import ToolboxKit

/// A scripted server: answers each device's sends from a list, and records everything.
final class ScriptedSender: ChangeSender {
    struct State {
        var scripts: [String: [SendOutcome]]
        var sent: [String] = []
        var inFlight = 0
        var maxInFlight = 0
    }
    let state: Mutex<State>
    let fallback: SendOutcome

    init(_ scripts: [String: [SendOutcome]], fallback: SendOutcome = .accepted) {
        state = Mutex(State(scripts: scripts))
        self.fallback = fallback
    }

    func send(_ claim: SyncQueue.Claim) async -> SendOutcome {
        state.withLock { $0.inFlight += 1; $0.maxInFlight = max($0.maxInFlight, $0.inFlight) }
        await Task.yield()
        return state.withLock { state in
            state.inFlight -= 1
            state.sent.append(claim.deviceID)
            guard var script = state.scripts[claim.deviceID], !script.isEmpty else { return fallback }
            let outcome = script.removeFirst()
            state.scripts[claim.deviceID] = script
            return outcome
        }
    }

    var sent: [String] { state.withLock { $0.sent } }
    var maxInFlight: Int { state.withLock { $0.maxInFlight } }
}

final class SleepLog: Sendable {
    let values = Mutex<[Double]>([])
    var all: [Double] { values.withLock { $0 } }
    @Sendable func sleep(_ seconds: Double) async throws { values.withLock { $0.append(seconds) } }
}

@Suite struct SyncEngineTests {
    func storeWithChanges(_ count: Int) throws -> DeviceStore {
        let store = try temporaryStore()
        let devices = (0..<count).map {
            ServerDevice(id: "DEV-\($0)", installationDate: nil, meterPointDescription: "Room \($0)", type: .heating)
        }
        try store.replaceServerCopy(devices)
        for device in devices { try store.record(device.id, installationDate: Date(timeIntervalSince1970: 1_000)) }
        return store
    }

    @Test func everythingAcceptedEmptiesTheQueue() async throws {
        let store = try storeWithChanges(20)
        let sender = ScriptedSender([:])
        let report = try await SyncEngine(store: store, sender: sender, jobs: 4, sleep: { _ in }).runOnce()
        #expect(report.synced == 20)
        #expect(report.exitStatus == .success)
        #expect(try store.pending().isEmpty)
        #expect(sender.sent.count == 20)
        #expect(Set(sender.sent).count == 20)
    }

    @Test func neverMoreThanJobsInFlight() async throws {
        let store = try storeWithChanges(40)
        let sender = ScriptedSender([:])
        _ = try await SyncEngine(store: store, sender: sender, jobs: 3, sleep: { _ in }).runOnce()
        #expect(sender.maxInFlight <= 3)
        #expect(sender.maxInFlight >= 1)
    }

    @Test func transientFailuresAreRetriedWithBackoffThenKept() async throws {
        let store = try storeWithChanges(2)
        let sender = ScriptedSender([
            "DEV-0": [.failed("HTTP 500"), .failed("HTTP 500"), .accepted],
            "DEV-1": [.failed("HTTP 500"), .failed("HTTP 503"), .failed("timeout"), .accepted],
        ])
        let sleeps = SleepLog()
        let engine = SyncEngine(store: store, sender: sender, jobs: 1, retries: 2, sleep: sleeps.sleep, random: { 1 })
        let report = try await engine.runOnce()
        #expect(report.synced == 1)
        #expect(report.remaining == 1)
        #expect(report.lastError == "timeout")
        #expect(report.exitStatus == .tempFail)
        // Full jitter with the unit draw at its top: the ceilings, doubling from 0.25 s.
        #expect(sleeps.all == [0.25, 0.5, 0.25, 0.5])
        let kept = try store.device("DEV-1")
        #expect(kept?.syncState == .pending)
        #expect(kept?.change?.attempts == 3)
        #expect(kept?.change?.claimedBy == nil)
        // The next sync sends it again and it goes through.
        let again = try await engine.runOnce()
        #expect(again.synced == 1)
        #expect(try store.pending().isEmpty)
    }

    @Test func rejectionsAreKeptNotRetried() async throws {
        let store = try storeWithChanges(3)
        let sender = ScriptedSender(["DEV-1": [.rejected("Bad Request: installationDate must be an ISO 8601 date or null")]])
        let report = try await SyncEngine(store: store, sender: sender, jobs: 2, sleep: { _ in }).runOnce()
        #expect(report.synced == 2)
        #expect(report.rejected == 1)
        #expect(report.exitStatus == .dataError)
        #expect(sender.sent.filter { $0 == "DEV-1" }.count == 1)
        let pending = try store.pending()
        #expect(pending.map(\.id) == ["DEV-1"])
        #expect(pending[0].syncState == .rejected)
        #expect(pending[0].change?.lastError?.hasPrefix("Bad Request") == true)
        // A later sync leaves it alone.
        let next = try await SyncEngine(store: store, sender: sender, sleep: { _ in }).runOnce()
        #expect(next.synced + next.rejected + next.remaining == 0)
    }

    @Test func waitKeepsGoingUntilEverythingIsThrough() async throws {
        let store = try storeWithChanges(3)
        let failures = Array(repeating: SendOutcome.failed("HTTP 500"), count: 7)
        let sender = ScriptedSender(["DEV-2": failures])
        let sleeps = SleepLog()
        let waits = Mutex(0)
        let engine = SyncEngine(store: store, sender: sender, jobs: 2, retries: 1, sleep: sleeps.sleep, random: { 0.5 })
        let report = try await engine.runUntilDone(onWait: { _, _ in waits.withLock { $0 += 1 } })
        #expect(report.synced == 3)
        #expect(report.exitStatus == .success)
        #expect(try store.pending().isEmpty)
        // Each round sends DEV-2 twice (one retry): 8 sends in 4 rounds, 3 pauses between them.
        #expect(sender.sent.filter { $0 == "DEV-2" }.count == 8)
        #expect(waits.withLock { $0 } == 3)
    }

    @Test func aSecondProcessLeavesClaimedChangesAlone() async throws {
        let store = try storeWithChanges(5)
        _ = try store.queue.claim(token: "someone-else", pid: 1)
        let sender = ScriptedSender([:])
        let report = try await SyncEngine(store: store, sender: sender, sleep: { _ in }).runOnce()
        #expect(sender.sent.isEmpty)
        #expect(report.heldElsewhere == 5)
        #expect(report.exitStatus == .tempFail)
    }
}
