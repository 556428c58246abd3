#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import SQLiteKit
import SQLiteNIO
import ToolboxKit

/// Pulling: the server's copy of the device list replaced, conflicts with waiting changes marked.
extension DeviceStore {
    /// Replaces the server's copy with `devices`. Local changes live apart and are never
    /// overwritten; a device gone from the server stays while it has a change. A device whose
    /// server value changed since the last pull while a local change waits is a conflict: it
    /// is marked on the change (the local value still wins when synced) and returned.
    @discardableResult
    public func replaceServerCopy(_ devices: [ServerDevice], at now: Date = Date()) throws(ToolError) -> [Conflict] {
        try write { db in
            // Keyed by bytes, as SQLite compares ids (not as Swift strings, which merge `é` and `e` + U+0301).
            var before: [[UInt8]: (server: String?, local: String?, pending: Bool)] = [:]
            for row in try db.rows("""
                SELECT d.id, d.installationDate AS server, c.installationDate AS local, c.deviceID AS changeID
                FROM device d LEFT JOIN change c ON c.deviceID = d.id
                """) {
                before[Array((row.column("id")?.string ?? "").utf8)] = (row.column("server")?.string, row.column("local")?.string,
                                                          row.column("changeID")?.string != nil)
            }
            var conflicts: [Conflict] = []
            try db.execute("CREATE TEMP TABLE IF NOT EXISTS seen (id TEXT PRIMARY KEY)")
            try db.execute("DELETE FROM seen")
            for device in devices {
                try db.execute("""
                    INSERT INTO device (id, type, meterPointDescription, installationDate) VALUES (?, ?, ?, ?)
                    ON CONFLICT (id) DO UPDATE SET type = excluded.type,
                        meterPointDescription = excluded.meterPointDescription, installationDate = excluded.installationDate
                    """, [.text(device.id), .text(device.type.rawValue), .text(device.meterPointDescription),
                          .optional(device.installationDate.map(StoredDate.format))])
                try db.execute("INSERT OR IGNORE INTO seen (id) VALUES (?)", [.text(device.id)])
                let serverValue = device.installationDate.map(StoredDate.format)
                if let old = before[Array(device.id.utf8)], old.server != serverValue {
                    try Self.log(db, at: now, device: device.id, .pulled, old: old.server, new: serverValue, detail: command)
                }
                if let old = before[Array(device.id.utf8)], old.pending, old.server != serverValue {
                    try Self.log(db, at: now, device: device.id, .conflict, old: old.local, new: serverValue,
                                 detail: "the server changed it while the local change waited; the local value wins at sync")
                    try db.execute("UPDATE change SET conflict = 1, conflictServerDate = ? WHERE deviceID = ?",
                                   [.optional(serverValue), .text(device.id)])
                    conflicts.append(Conflict(deviceID: device.id, serverDate: device.installationDate,
                                              localDate: StoredDate.parse(old.local)))
                }
            }
            try db.execute("""
                DELETE FROM device WHERE id NOT IN (SELECT id FROM seen) AND id NOT IN (SELECT deviceID FROM change)
                """)
            try db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('lastPull', ?)", [.text(StoredDate.format(now))])
            return conflicts
        }
    }

    /// A server value that changed under a pending local change.
    public struct Conflict: Sendable, Equatable {
        public let deviceID: String
        /// What the server has now; nil: not installed.
        public let serverDate: Date?
        /// What the pending change says, and what a sync will send.
        public let localDate: Date?
    }
}
