import FoundationEssentials
import Testing
@testable import DevsyncKit
import ToolboxKit
import TestSupport

/// Issue 48: what another process changed since a screen read the store, named by the history,
/// read in one transaction; too many changes, or a device gone, ask for the whole store.
@Suite struct StoreCatchUpTests {
    @Test func anotherConnectionsChangesAreNamedByTheHistory() throws {
        let folder = TemporaryFolders.make("catchup")
        let screen = try DeviceStore(path: folder + "/devsync.sqlite")
        try screen.replaceServerCopy(seed)
        let seq = try screen.history.newestSeq()
        let other = try DeviceStore(path: folder + "/devsync.sqlite")  // another process's connection
        let day = Date(timeIntervalSince1970: 1_709_543_700)
        try other.record("HEA-8127-29", installationDate: day)
        try other.record("CWM-0012-62", installationDate: nil)
        try other.record("HEA-8127-29", installationDate: day.addingTimeInterval(60))
        let changes = try screen.history.changes(since: seq)
        #expect(changes.devices?.map(\.id) == ["HEA-8127-29", "CWM-0012-62"], "each device once, as named")
        #expect(changes.devices?.first?.change?.installationDate == day.addingTimeInterval(60), "as the store has it now")
        #expect(changes.pending.map(\.id) == ["CWM-0012-62", "HEA-8127-29"])
        let newest = try screen.history.newestSeq(), lastPull = try screen.lastPull()
        #expect(changes.seq == newest && changes.seq > seq)
        #expect(changes.total == 3 && changes.lastPull == lastPull)
        // Nothing since: nothing named.
        #expect(try screen.history.changes(since: changes.seq).devices == [])
        // More than the limit: the whole store is read instead.
        #expect(try screen.history.changes(since: seq, limit: 1).devices == nil)
        #expect(try screen.history.changes(since: seq, limit: 2).devices == nil && screen.history.changes(since: seq, limit: 3).devices?.count == 2)
    }

    /// A claim writes no history entry; it shows in the pending devices read beside it.
    @Test func aClaimShowsInThePendingDevices() throws {
        let folder = TemporaryFolders.make("catchup")
        let screen = try DeviceStore(path: folder + "/devsync.sqlite")
        try screen.replaceServerCopy(seed)
        try screen.record("HEA-8127-29", installationDate: nil)
        let seq = try screen.history.newestSeq()
        let other = try DeviceStore(path: folder + "/devsync.sqlite")
        _ = try other.queue.claim(token: "sync-1", pid: 1)
        let changes = try screen.history.changes(since: seq)
        #expect(changes.devices == [])
        #expect(changes.pending.map(\.id) == ["HEA-8127-29"] && changes.pending.first?.change?.claimedBy == 1)
    }
}
