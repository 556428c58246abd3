import FoundationEssentials
import Testing
@testable import DevsyncKit
import ToolboxKit
import TestSupport

/// Issue 39: `status` counts without reading every device, and counts what reading every
/// device would: on seeded stores with changes, rejections, conflicts and damaged dates.
@Suite struct StoreStatusTests {
    /// The counts by definition: every device read and judged by `Device`.
    static func counted(_ devices: [Device]) -> [Int] {
        [devices.count,
         devices.filter { $0.installationDate != nil }.count,
         devices.filter { $0.syncState == .pending }.count,
         devices.filter { $0.syncState == .rejected }.count,
         devices.filter { $0.change?.serverChange != nil }.count]
    }

    @Test(arguments: [1, 2, 3, 4, 5])
    func statusCountsWhatReadingEveryDeviceCounts(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let store = try temporaryStore()
        let days = (0..<12).map { Date(timeIntervalSince1970: 1_700_000_000 + Double($0) * 86_400) }
        let devices = (0..<400).map { number in
            ServerDevice(id: String(format: "DEV-%04d", number), installationDate: Bool.random(using: &random) ? days.randomElement(using: &random) : nil,
                         meterPointDescription: "Room \(number)", type: .heating)
        }
        try store.replaceServerCopy(devices)
        for device in devices.shuffled(using: &random).prefix(60) {
            try store.record(device.id, installationDate: Bool.random(using: &random) ? days.randomElement(using: &random) : nil)
        }
        for claim in try store.queue.claim(token: "t").claims.prefix(15) { try store.queue.markRejected(claim, message: "no") }
        let path = store.path
        // Conflicts, damaged change dates, and server dates no parser reads, as a damaged or
        // foreign store may hold.
        sqlite(path, "UPDATE change SET conflict = 1 WHERE rowid % 7 = 0")
        sqlite(path, "UPDATE change SET installationDate = 'garbage' WHERE rowid % 11 = 0")
        sqlite(path, "UPDATE device SET installationDate = 'not a date' WHERE rowid % 13 = 0")
        sqlite(path, "UPDATE device SET installationDate = '' WHERE rowid % 17 = 0")
        // A change whose device the server no longer lists.
        sqlite(path, "DELETE FROM device WHERE id = (SELECT deviceID FROM change LIMIT 1)")

        let reopened = try DeviceStore(path: path)
        let status = try StoreStatus(of: reopened)
        let expected = Self.counted(try reopened.devices())
        #expect([status.devices, status.installed, status.pending, status.rejected, status.conflicts] == expected)
        #expect(expected[1] > 0 && expected[2] > 0 && expected[3] > 0 && expected[4] > 0, "\(expected)")
    }

    /// What the store keeps of its server dates (`server_dates`, by triggers) is what counting
    /// every device gives, through pulls that add, change and drop devices, syncs that take a
    /// local date as the server's, and rows written by another program.
    @Test(arguments: [11, 12, 13])
    func theKeptServerDatesAreWhatCountingGives(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let store = try temporaryStore()
        let days = (0..<9).map { Date(timeIntervalSince1970: 1_700_000_000 + Double($0) * 86_400) }
        func pulled(_ count: Int) -> [ServerDevice] {
            (0..<count).map { number in
                ServerDevice(id: "DEV-\(number)", installationDate: Bool.random(using: &random) ? days.randomElement(using: &random) : nil,
                             meterPointDescription: "Room \(number)", type: .heating)
            }
        }
        func kept() throws -> [String] {
            try store.read { db in try db.rows("SELECT date, devices FROM server_dates ORDER BY date").map { "\($0.column("date")?.string ?? "") \($0.column("devices")?.integer ?? 0)" } }
                + [try store.read { db in "total \(try db.value("SELECT devices FROM device_total")?.integer ?? -1)" }]
        }
        func counted() throws -> [String] {
            try store.read { db in try db.rows(StoreStatus.serverDatesCounted + " ORDER BY date").map { "\($0.column("date")?.string ?? "") \($0.column("devices")?.integer ?? 0)" } }
                + [try store.read { db in "total \(try db.value("SELECT count(*) FROM device")?.integer ?? -1)" }]
        }
        try store.replaceServerCopy(pulled(300))
        #expect(try kept() == counted() && counted().count > 1)
        for device in try store.deviceIDs().shuffled(using: &random).prefix(40) {
            try store.record(device, installationDate: Bool.random(using: &random) ? days.randomElement(using: &random) : nil)
        }
        for claim in try store.queue.claim(token: "t").claims.prefix(25) { try store.queue.markSynced(claim) }
        #expect(try kept() == counted())
        try store.replaceServerCopy(pulled(200))  // dates changed, 100 devices gone (but those with a change)
        #expect(try kept() == counted())
        sqlite(store.path, "UPDATE device SET installationDate = 'not a date' WHERE rowid % 13 = 0")
        sqlite(store.path, "DELETE FROM device WHERE rowid % 7 = 0")
        #expect(try kept() == counted())
    }

    /// A store without the kept counts (an older devsync's, opened read-only, is never given
    /// them) is counted from its devices, with the same result.
    @Test func aStoreWithoutTheKeptCountsIsCounted() throws {
        let store = try temporaryStore()
        let days = (0..<5).map { Date(timeIntervalSince1970: 1_700_000_000 + Double($0) * 86_400) }
        try store.replaceServerCopy((0..<50).map { number in
            ServerDevice(id: "DEV-\(number)", installationDate: number % 3 == 0 ? nil : days[number % 5],
                         meterPointDescription: "Room \(number)", type: .heating)
        })
        try store.record("DEV-1", installationDate: nil)
        let kept = try StoreStatus(of: store)
        sqlite(store.path, "DROP TABLE server_dates; DROP TABLE device_total")
        let counted = try StoreStatus(of: DeviceStore(path: store.path))
        #expect(counted == kept && kept.devices == 50 && kept.installed == 32, "\(kept)")
    }
}
