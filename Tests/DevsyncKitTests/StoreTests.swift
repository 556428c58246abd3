import FoundationEssentials
import Glibc
import Testing
@testable import DevsyncKit
import ToolboxKit
import TestSupport

/// A store in a fresh temporary folder.
func temporaryStore() throws -> DeviceStore {
    let folder = TemporaryFolders.make("store")
    return try DeviceStore(path: folder + "/nested/devsync.sqlite")
}

let seed = [
    ServerDevice(id: "WWM-0001-12", installationDate: Date(timeIntervalSince1970: 1_709_543_700), meterPointDescription: "Kitchen", type: .warmWater),
    ServerDevice(id: "CWM-0012-62", installationDate: nil, meterPointDescription: "Kitchen", type: .coldWater),
    ServerDevice(id: "HEA-8127-29", installationDate: nil, meterPointDescription: "Hallway", type: .heating),
]

@Suite struct StoreTests {
    /// Issue 64: the store's server is one origin whatever the case of its scheme and host or
    /// a default port written out (RFC 3986 §3.1, §6.2.2); another server is still refused.
    @Test func theSameServerInAnotherCaseIsTheSameServer() throws {
        let store = try temporaryStore()
        try store.binding.bind(to: "http://meters.example:8080", switching: false)
        #expect(try store.binding.bind(to: "HTTP://Meters.EXAMPLE:8080", switching: false) == nil)
        #expect(try store.binding.bind(to: "http://meters.example:8080/", switching: false) == nil)
        #expect(throws: ToolError.self) { try store.binding.bind(to: "http://other.example:8080", switching: false) }
        try store.binding.bind(to: "https://meters.example", switching: true)
        #expect(try store.binding.bind(to: "https://METERS.example:443", switching: false) == nil)
    }

    /// Issue 64: a change a sync sent to the store's old server while `sync --switch-server`
    /// moved the store is logged as sent there, and stays pending for the new server, which
    /// has not had it (it was logged as sent to the new one and dropped).
    @Test func aChangeSentToTheOldServerStaysPendingForTheNewOne() throws {
        let store = try temporaryStore()
        try store.replaceServerCopy(seed)
        try store.binding.bind(to: "http://old.example", switching: false)
        try store.record("CWM-0012-62", installationDate: Date(timeIntervalSince1970: 1_700_000_000))
        let (claims, _, _) = try store.queue.claim(token: "a")
        try store.binding.bind(to: "http://new.example", switching: true)
        try store.queue.markSynced(claims[0], sentTo: "http://old.example")
        #expect(try store.pending().map(\.id) == ["CWM-0012-62"])
        #expect(try store.device("CWM-0012-62")?.change?.claimedBy == nil)
        let logged = try store.history.events(device: "CWM-0012-62").map(\.detail).joined(separator: "\n")
        #expect(logged.contains("to http://old.example; the store moved to http://new.example"), "\(logged)")
        // Sent to the store's own server, it is synced as before.
        let (again, _, _) = try store.queue.claim(token: "b")
        try store.queue.markSynced(again[0], sentTo: "HTTP://NEW.example")
        #expect(try store.pending().isEmpty)
    }

    @Test func pullFillsTheStoreAndCreatesItsFolder() throws {
        let store = try temporaryStore()
        try store.replaceServerCopy(seed)
        let devices = try store.devices()
        #expect(devices.map(\.id) == ["CWM-0012-62", "HEA-8127-29", "WWM-0001-12"])
        #expect(devices.allSatisfy { $0.syncState == .synced })
        #expect(try store.device("WWM-0001-12")?.installationDate == Date(timeIntervalSince1970: 1_709_543_700))
    }

    /// Issue 39: the store is read in one transaction, and the first devices are seen before
    /// the rest is read, however many are asked for first (more than there are too).
    @Test func theFirstDevicesAreSeenFirst() throws {
        let store = try temporaryStore()
        let many = (0..<1_234).map { ServerDevice(id: String(format: "M-%05d", ($0 * 7_919) % 100_000), installationDate: nil,
                                                  meterPointDescription: "Room \($0)", type: .heating) }
        try store.replaceServerCopy(many)
        try store.record(many[10].id, installationDate: Date(timeIntervalSince1970: 1_709_543_700))
        let whole = try store.devices()
        #expect(whole.map(\.id) == many.map(\.id).sorted() && whole.count == 1_234)
        for first in [7, 1, 500, 1_233, 1_234, 5_000] {
            var seen: [[Device]] = []
            let all = try store.devices(first: first) { seen.append($0) }
            #expect(all == whole, "first \(first)")
            #expect(seen.count == 1 && seen.first == Array(whole.prefix(first)), "first \(first)")
        }
        #expect(try store.deviceCount() == 1_234)
    }

    @Test func changesCollapseIntoTheLatest() throws {
        let store = try temporaryStore()
        try store.replaceServerCopy(seed)
        let first = Date(timeIntervalSince1970: 1_700_000_000)
        try store.record("CWM-0012-62", installationDate: first)
        try store.record("CWM-0012-62", installationDate: nil)
        try store.record("CWM-0012-62", installationDate: first.addingTimeInterval(60))
        let pending = try store.pending()
        #expect(pending.count == 1)
        #expect(pending[0].change?.installationDate == first.addingTimeInterval(60))
        #expect(pending[0].change?.revision == 3)
        #expect(pending[0].syncState == .pending)
    }

    @Test func anUnknownIDIsRefused() throws {
        let store = try temporaryStore()
        try store.replaceServerCopy(seed)
        #expect(throws: ToolError.self) { try store.record("NOPE-0000-00", installationDate: nil) }
        #expect(try store.pending().isEmpty)
    }

    @Test func pullNeverOverwritesALocalChange() throws {
        let store = try temporaryStore()
        try store.replaceServerCopy(seed)
        let date = Date(timeIntervalSince1970: 1_700_000_000)
        try store.record("HEA-8127-29", installationDate: date)
        // The server drops the device and changes another: the change survives both.
        try store.replaceServerCopy(Array(seed.prefix(2)))
        #expect(try store.device("HEA-8127-29")?.installationDate == date)
        #expect(try store.device("HEA-8127-29")?.syncState == .pending)
        try store.replaceServerCopy([])
        #expect(try store.devices().map(\.id) == ["HEA-8127-29"])
    }

    @Test func theLifeOfAChange() throws {
        let store = try temporaryStore()
        try store.replaceServerCopy(seed)
        let date = Date(timeIntervalSince1970: 1_700_000_000)
        try store.record("CWM-0012-62", installationDate: date)
        try store.record("HEA-8127-29", installationDate: date)
        try store.record("WWM-0001-12", installationDate: nil)

        // pending → in flight
        let (claims, elsewhere, _) = try store.queue.claim(token: "a")
        #expect(claims.map(\.deviceID) == ["CWM-0012-62", "HEA-8127-29", "WWM-0001-12"])
        #expect(elsewhere == 0)
        #expect(DevicePatch(claims[2]).body == #"{"installationDate":null}"#)
        #expect(DevicePatch(claims[0]).body == #"{"installationDate":"2023-11-14T22:13:20Z"}"#)
        #expect(try store.device("CWM-0012-62")?.change?.claimedBy == getpid())

        // in flight → synced: the change leaves the queue, the server copy takes its value
        try store.queue.markSynced(claims[0])
        #expect(try store.device("CWM-0012-62")?.syncState == .synced)
        #expect(try store.device("CWM-0012-62")?.serverDate == date)

        // in flight → rejected: kept with the server's message
        try store.queue.markRejected(claims[1], message: "Bad Request: nope")
        let rejected = try store.device("HEA-8127-29")
        #expect(rejected?.syncState == .rejected)
        #expect(rejected?.change?.lastError == "Bad Request: nope")
        #expect(rejected?.change?.attempts == 1)

        // in flight → back to pending after failed tries
        try store.queue.recordFailedAttempt(claims[2], message: "HTTP 500")
        try store.queue.recordFailedAttempt(claims[2], message: "HTTP 503")
        try store.queue.release(token: "a")
        let back = try store.device("WWM-0001-12")
        #expect(back?.syncState == .pending)
        #expect(back?.change?.attempts == 2)
        #expect(back?.change?.lastError == "HTTP 503")
        #expect(back?.change?.claimedBy == nil)

        // a rejected change is not sent again, until it is recorded anew
        #expect(try store.queue.claim(token: "b").claims.map(\.deviceID) == ["WWM-0001-12"])
        try store.queue.release(token: "b")
        try store.record("HEA-8127-29", installationDate: nil)
        #expect(try store.device("HEA-8127-29")?.syncState == .pending)
        #expect(try store.device("HEA-8127-29")?.change?.attempts == 0)
    }

    @Test func aNewerLocalChangeSurvivesTheSyncOfAnOlderOne() throws {
        let store = try temporaryStore()
        try store.replaceServerCopy(seed)
        try store.record("CWM-0012-62", installationDate: Date(timeIntervalSince1970: 1))
        let claim = try store.queue.claim(token: "a").claims[0]
        try store.record("CWM-0012-62", installationDate: Date(timeIntervalSince1970: 2))
        try store.queue.markSynced(claim)
        let device = try store.device("CWM-0012-62")
        #expect(device?.syncState == .pending)
        #expect(device?.installationDate == Date(timeIntervalSince1970: 2))
        #expect(device?.serverDate == Date(timeIntervalSince1970: 1))
    }

    @Test func aLiveProcessesClaimIsRespectedAndADeadOnesIsTakenOver() throws {
        let store = try temporaryStore()
        try store.replaceServerCopy(seed)
        try store.record("CWM-0012-62", installationDate: nil)
        // pid 1 is always alive: another process is sending it.
        #expect(try store.queue.claim(token: "other", pid: 1).claims.count == 1)
        let mine = try store.queue.claim(token: "mine")
        #expect(mine.claims.isEmpty)
        #expect(mine.heldElsewhere == 1)
        // A pid above pid_max never runs: its claim is stale.
        try store.queue.release(token: "other")
        #expect(try store.queue.claim(token: "dead", pid: 4_194_305).claims.count == 1)
        #expect(try store.queue.claim(token: "mine").claims.count == 1)
    }

    @Test func discardDropsOnlyTheChange() throws {
        let store = try temporaryStore()
        try store.replaceServerCopy(seed)
        try store.record("CWM-0012-62", installationDate: Date(timeIntervalSince1970: 5))
        #expect(try store.discard("CWM-0012-62"))
        #expect(try !store.discard("CWM-0012-62"))
        #expect(try store.device("CWM-0012-62")?.installationDate == nil)
        #expect(try store.device("CWM-0012-62")?.syncState == .synced)
    }

    @Test func statusCounts() throws {
        let store = try temporaryStore()
        try store.replaceServerCopy(seed)
        try store.record("CWM-0012-62", installationDate: Date(timeIntervalSince1970: 5))
        try store.record("HEA-8127-29", installationDate: Date(timeIntervalSince1970: 5))
        let claim = try store.queue.claim(token: "t").claims.first { $0.deviceID == "HEA-8127-29" }!
        try store.queue.markRejected(claim, message: "no")
        let status = try StoreStatus(of: store)
        #expect(status.devices == 3)
        #expect(status.installed == 3)
        #expect(status.pending == 1)
        #expect(status.rejected == 1)
        #expect(status.lastSync == nil)
        #expect(status.lastPull != nil)
    }

    @Test func aForeignOrNewerDatabaseIsRefusedNotRewritten() throws {
        let store = try temporaryStore()
        let path = store.path
        try store.replaceServerCopy(seed)
        // A newer devsync added a migration we do not know.
        sqlite(path, "INSERT INTO grdb_migrations (identifier) VALUES ('v9')")
        do {
            _ = try DeviceStore(path: path)
            Issue.record("expected a refusal")
        } catch {
            #expect(error.message.contains("newer devsync"))
            #expect(error.exitStatus == .ioError)
        }
        // Another program's database.
        let foreign = TemporaryFolders.make("foreign") + "/other.sqlite"
        sqlite(foreign, "CREATE TABLE notes (text TEXT)")
        #expect(throws: ToolError.self) { try DeviceStore(path: foreign) }
    }

    @Test func datesTypedByInstallers() throws {
        #expect(try DateInput.parse("2024-03-04T09:15:00Z") == Date(timeIntervalSince1970: 1_709_543_700))
        #expect(try DateInput.parse("2024-03-04T10:15:00+01:00") == Date(timeIntervalSince1970: 1_709_543_700))
        // Local time, whatever the zone: it reads back as typed.
        #expect(DateDisplay.human(try DateInput.parse("2024-03-04 09:15")) == "2024-03-04 09:15")
        #expect(DateDisplay.human(try DateInput.parse("2024-03-04T09:15")) == "2024-03-04 09:15")
        // A day alone is its first second, local time.
        #expect(DateDisplay.human(try DateInput.parse("2024-03-04")) == "2024-03-04 00:00")
        for bad in ["2024-02-30 10:00", "2024-13-01 10:00", "2024-03-04 25:00", "2024-3-4", ""] {
            #expect(throws: ToolError.self, "\(bad)") { try DateInput.parse(bad) }
        }
    }
}

/// Issue 14: a server value that changed under a pending change is a conflict, shown until the
/// change is through; the local value still wins.
@Suite struct ConflictTests {
    @Test func aServerChangeUnderAPendingChangeIsAConflict() throws {
        let store = try temporaryStore()
        try store.replaceServerCopy(seed)
        let mine = Date(timeIntervalSince1970: 1_700_000_000)
        let theirs = Date(timeIntervalSince1970: 1_600_000_000)
        try store.record("CWM-0012-62", installationDate: mine)
        // Unchanged on the server: no conflict.
        #expect(try store.replaceServerCopy(seed).isEmpty)
        var changed = seed
        let index = try #require(changed.firstIndex { $0.id == "CWM-0012-62" })
        changed[index] = ServerDevice(id: "CWM-0012-62", installationDate: theirs, meterPointDescription: "Kitchen", type: .coldWater)
        // A device without a pending change may change freely.
        let other = try #require(changed.firstIndex { $0.id == "WWM-0001-12" })
        changed[other] = ServerDevice(id: "WWM-0001-12", installationDate: nil, meterPointDescription: "Kitchen", type: .warmWater)
        #expect(try store.replaceServerCopy(changed) == [DeviceStore.Conflict(deviceID: "CWM-0012-62", serverDate: theirs, localDate: mine)])
        #expect(try store.device("CWM-0012-62")?.change?.serverChange == PendingChange.ServerChange(installationDate: theirs))
        #expect(try store.device("CWM-0012-62")?.installationDate == mine)
        #expect(try StoreStatus(of: store).conflicts == 1)
        // Pulled again unchanged: still marked, not reported again.
        #expect(try store.replaceServerCopy(changed).isEmpty)
        #expect(try StoreStatus(of: store).conflicts == 1)
        // Synced: the local value wins and the conflict is over.
        let (claims, _, _) = try store.queue.claim(token: "t")
        for claim in claims { try store.queue.markSynced(claim) }
        #expect(try store.device("CWM-0012-62")?.installationDate == mine)
        #expect(try StoreStatus(of: store).conflicts == 0)
    }
}
