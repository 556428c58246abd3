import FoundationEssentials
import SQLiteKit
import ToolboxKit

/// What `devsync status` says of a store: its counts and when it last pulled and synced.
public struct StoreStatus: Sendable, Equatable {
    public let devices: Int
    public let installed: Int
    public let pending: Int
    public let rejected: Int
    /// Changes whose stored date cannot be read: never sent, shown, to record again or discard.
    public let damaged: Int
    /// Pending changes whose device the server changed meanwhile.
    public let conflicts: Int
    public let lastSync: Date?
    public let lastPull: Date?

    /// Counted without reading every device: the devices with a change are few and are judged
    /// as everywhere else (`Device`); the others (100,000 after a pull) are counted by SQLite,
    /// each distinct server date parsed once, as `Device.installationDate` parses it.
    public init(of store: DeviceStore) throws(ToolError) {
        self = try store.read { db in
            let changed = try db.rows(DeviceStore.changedDevicesQuery).map(DeviceStore.device)
            var installed = changed.filter { $0.installationDate != nil }.count
            for row in try db.rows(Self.serverDatesOfUnchanged) where StoredDate.parse(row.column("date")?.string) != nil {
                installed += row.column("devices")?.integer ?? 0
            }
            func meta(_ key: String) throws -> Date? {
                StoredDate.parse(try db.value("SELECT value FROM meta WHERE key = ?", [.text(key)])?.string)
            }
            return StoreStatus(devices: try db.value("SELECT count(*) FROM device")?.integer ?? 0,
                               installed: installed,
                               pending: changed.filter { $0.syncState == .pending }.count,
                               rejected: changed.filter { $0.syncState == .rejected }.count,
                               damaged: changed.filter { $0.syncState == .damaged }.count,
                               conflicts: changed.filter { $0.change?.serverChange != nil }.count,
                               lastSync: try meta("lastSync"), lastPull: try meta("lastPull"))
        }
    }

    private init(devices: Int, installed: Int, pending: Int, rejected: Int, damaged: Int, conflicts: Int,
                 lastSync: Date?, lastPull: Date?) {
        (self.devices, self.installed, self.pending, self.rejected) = (devices, installed, pending, rejected)
        (self.damaged, self.conflicts, self.lastSync, self.lastPull) = (damaged, conflicts, lastSync, lastPull)
    }

    /// How many devices without a change have each server date.
    static let serverDatesOfUnchanged = """
        SELECT d.installationDate AS date, count(*) AS devices FROM device d
        WHERE d.installationDate IS NOT NULL AND NOT EXISTS (SELECT 1 FROM change c WHERE c.deviceID = d.id)
        GROUP BY d.installationDate
        """
}
