import FoundationEssentials
import Synchronization
import Testing
@testable import DevsyncKit
import ToolboxKit

/// What the sync screen is built on: every change's state as it happens, conflicts left
/// for the installer, and a stop that lets what is in flight finish and keeps the rest.
@Suite struct SyncEventsTests {
    final class EventLog: Sendable {
        let events = Mutex<[SyncEvent]>([])
        var all: [SyncEvent] { events.withLock { $0 } }
        @Sendable func record(_ event: SyncEvent) { events.withLock { $0.append(event) } }
    }

    func storeWithChanges(_ count: Int) throws -> DeviceStore {
        try SyncEngineTests().storeWithChanges(count)
    }

    @Test func everyStateIsReportedInOrder() async throws {
        let store = try storeWithChanges(3)
        let sender = ScriptedSender(["DEV-0": [.failed("HTTP 500"), .accepted], "DEV-1": [.rejected("bad date")],
                                     "DEV-2": [.failed("HTTP 503"), .failed("HTTP 503"), .failed("HTTP 503")]])
        let log = EventLog()
        let report = try await SyncEngine(store: store, sender: sender, jobs: 1, retries: 2, sleep: { _ in }, random: { 0.5 },
                                          observe: log.record).runOnce()
        #expect(report.synced == 1 && report.rejected == 1 && report.remaining == 1)
        #expect(log.all == [
            .claimed(["DEV-0", "DEV-1", "DEV-2"], heldElsewhere: 0),
            .sending("DEV-0", attempt: 1), .waiting("DEV-0", retry: 1, seconds: 0.125, error: "HTTP 500"),
            .sending("DEV-0", attempt: 2), .synced("DEV-0"),
            .sending("DEV-1", attempt: 1), .rejected("DEV-1", message: "bad date"),
            .sending("DEV-2", attempt: 1), .waiting("DEV-2", retry: 1, seconds: 0.125, error: "HTTP 503"),
            .sending("DEV-2", attempt: 2), .waiting("DEV-2", retry: 2, seconds: 0.25, error: "HTTP 503"),
            .sending("DEV-2", attempt: 3), .kept("DEV-2", message: "HTTP 503"),
        ])
    }

    @Test func conflictsAreLeftForTheInstallerWhenAsked() async throws {
        let store = try storeWithChanges(2)
        // The server's value of DEV-1 changed while our change waited.
        try store.replaceServerCopy([ServerDevice(id: "DEV-0", installationDate: nil, meterPointDescription: "Room 0", type: .heating),
                                     ServerDevice(id: "DEV-1", installationDate: Date(timeIntervalSince1970: 5), meterPointDescription: "Room 1", type: .heating)])
        let sender = ScriptedSender([:])
        let report = try await SyncEngine(store: store, sender: sender, sleep: { _ in }, holdsConflicts: true).runOnce()
        #expect(sender.sent == ["DEV-0"])
        #expect(report.synced == 1)
        #expect(try store.device("DEV-1")?.change?.serverChange != nil)

        // Keeping the local value clears the mark; the next sync sends it.
        #expect(try store.keepLocal("DEV-1"))
        #expect(try store.history.events(device: "DEV-1").first?.event == .resolved)
        #expect(try !store.keepLocal("DEV-1"))
        _ = try await SyncEngine(store: store, sender: sender, sleep: { _ in }, holdsConflicts: true).runOnce()
        #expect(sender.sent == ["DEV-0", "DEV-1"])
        #expect(try store.pending().isEmpty)
    }

    @Test func aStopLetsTheSendInFlightFinishAndKeepsTheRest() async throws {
        let store = try storeWithChanges(5)
        let stop = SyncStop()
        // The first send asks for the stop while it is in flight, as Esc would.
        let sender = StoppingSender(stop: stop)
        let report = try await SyncEngine(store: store, sender: sender, jobs: 1, sleep: { _ in }, stop: stop).runOnce()
        #expect(sender.sent.count == 1)
        #expect(report.synced == 1 && report.remaining == 4)
        let pending = try store.pending()
        #expect(pending.count == 4)
        #expect(pending.allSatisfy { $0.change?.claimedBy == nil })
    }

    @Test func aStopEndsAPauseBeforeARetry() async throws {
        let store = try storeWithChanges(1)
        let stop = SyncStop()
        let sender = ScriptedSender(["DEV-0": [.failed("HTTP 500")]])
        let log = EventLog()
        // The pause would last an hour; the stop comes during it.
        let engine = SyncEngine(store: store, sender: sender, jobs: 1, retries: 5,
                                sleep: { _ in stop.request(); try await Task.sleep(for: .seconds(3600)) },
                                stop: stop, observe: log.record)
        let report = try await engine.runOnce()
        #expect(report.remaining == 1)
        #expect(sender.sent == ["DEV-0"])
        #expect(log.all.last == .kept("DEV-0", message: "stopped before sending"))
        #expect(try store.device("DEV-0")?.change?.attempts == 1)
    }

    @Test func aStopRequestedBeforeAPauseSkipsIt() async {
        let stop = SyncStop()
        stop.request()
        let slept = Mutex(false)
        await stop.pause(3600) { _ in slept.withLock { $0 = true } }
        #expect(!slept.withLock { $0 })
        #expect(stop.isRequested)
    }
}

/// A server that takes every change, asking for a stop during the first send.
final class StoppingSender: ChangeSender {
    let stop: SyncStop
    let log = Mutex<[String]>([])

    init(stop: SyncStop) { self.stop = stop }

    func send(_ claim: SyncQueue.Claim) async -> SendOutcome {
        stop.request()
        log.withLock { $0.append(claim.deviceID) }
        return .accepted
    }

    var sent: [String] { log.withLock { $0 } }
}
