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
    /// as everywhere else (`Device`); the others (100,000 after a pull) are counted from what
    /// SQLite keeps of the server dates (`server_dates`, a row a distinct date), each parsed
    /// once as `Device.installationDate` parses it, less the server dates of the changed ones.
    public init(of store: DeviceStore) throws(ToolError) {
        self = try store.read { db in
            let changed = try db.rows(DeviceStore.changedDevicesQuery).map(DeviceStore.device)
            var installed = changed.filter { $0.installationDate != nil }.count - changed.filter { $0.serverDate != nil }.count
            // A store of an older devsync opened read-only has not been given the tables.
            let kept = try db.value("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN ('server_dates', 'device_total')")?.integer == 2
            for row in try db.rows(kept ? Self.serverDates : Self.serverDatesCounted) where StoredDate.parse(row.column("date")?.string) != nil {
                installed += row.column("devices")?.integer ?? 0
            }
            func meta(_ key: String) throws -> Date? {
                StoredDate.parse(try db.value("SELECT value FROM meta WHERE key = ?", [.text(key)])?.string)
            }
            let devices = try db.value(kept ? "SELECT devices FROM device_total" : "SELECT count(*) FROM device")?.integer ?? 0
            return StoreStatus(devices: devices,
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

    /// How many devices have each server date, as the store keeps it (`StoreSchema`'s v4);
    /// counted, for a store of an older devsync opened read-only.
    static let serverDates = "SELECT date, devices FROM server_dates"
    static let serverDatesCounted = """
        SELECT installationDate AS date, count(*) AS devices FROM device
        WHERE installationDate IS NOT NULL GROUP BY installationDate
        """
}
