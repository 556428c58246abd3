import FoundationEssentials
import Testing
@testable import DevsyncKit
import ToolboxKit
import TestSupport

/// Issue 14: the history records every change, sync attempt, pull and conflict, and is never
/// rewritten.
@Suite struct HistoryTests {
    func events(_ store: DeviceStore, _ id: String? = nil) throws -> [String] {
        try store.history.events(device: id).reversed().map { event in
            let old = event.oldValue.map(ISO8601.format) ?? "-"
            let new = event.newValue.map(ISO8601.format) ?? "-"
            return "\(event.device) \(event.event.rawValue) \(old) \(new) \(event.detail)"
        }
    }

    @Test func theLifeOfAChangeIsKept() throws {
        let path = TemporaryFolders.make("history") + "/devsync.sqlite"
        let store = try DeviceStore(path: path, command: "install")
        try store.replaceServerCopy(seed)
        #expect(try events(store).isEmpty, "a first pull adds devices, it changes none")
        let mine = Date(timeIntervalSince1970: 1_700_000_000)  // 2023-11-14T22:13:20Z
        try store.record("CWM-0012-62", installationDate: mine)
        try store.record("WWM-0001-12", installationDate: nil)
        #expect(try store.discard("WWM-0001-12"))
        let (claims, _, _) = try store.queue.claim(token: "t")
        let claim = try #require(claims.first)
        try store.queue.recordFailedAttempt(claim, message: "HTTP 503")
        try store.queue.markSynced(claim)
        try store.recordAll([("HEA-8127-29", mine)])
        let (more, _, _) = try store.queue.claim(token: "u")
        try store.queue.markRejected(try #require(more.first), message: "Bad Request: sealed")
        #expect(try events(store) == [
            "CWM-0012-62 recorded - 2023-11-14T22:13:20Z install",
            "WWM-0001-12 recorded 2024-03-04T09:15:00Z - install",
            "WWM-0001-12 discarded - - install",
            "CWM-0012-62 failed - 2023-11-14T22:13:20Z attempt 1: HTTP 503",
            "CWM-0012-62 synced - 2023-11-14T22:13:20Z attempt 2",
            "HEA-8127-29 recorded - 2023-11-14T22:13:20Z install",
            "HEA-8127-29 rejected - 2023-11-14T22:13:20Z attempt 1: Bad Request: sealed",
        ])
        #expect(try events(store, "WWM-0001-12").count == 2)
        #expect(try store.history.events(since: Date().addingTimeInterval(3600)).isEmpty)
    }

    @Test func pullsThatChangeADeviceAndConflictsAreKept() throws {
        let store = try temporaryStore()
        try store.replaceServerCopy(seed)
        let mine = Date(timeIntervalSince1970: 1_700_000_000)
        let theirs = Date(timeIntervalSince1970: 1_600_000_000)  // 2020-09-13T12:26:40Z
        try store.record("CWM-0012-62", installationDate: mine)
        var changed = seed
        for (index, device) in changed.enumerated() where device.id == "CWM-0012-62" || device.id == "HEA-8127-29" {
            changed[index] = ServerDevice(id: device.id, installationDate: theirs, meterPointDescription: device.meterPointDescription, type: device.type)
        }
        try store.replaceServerCopy(changed)
        let entries = try events(store).filter { !$0.contains(" recorded ") }
        #expect(entries.contains("CWM-0012-62 pulled - 2020-09-13T12:26:40Z devsync"))
        #expect(entries.contains("HEA-8127-29 pulled - 2020-09-13T12:26:40Z devsync"))
        #expect(entries.contains { $0.hasPrefix("CWM-0012-62 conflict 2023-11-14T22:13:20Z 2020-09-13T12:26:40Z the server changed it") })
        #expect(!entries.contains { $0.hasPrefix("HEA-8127-29 conflict") })
    }
}
