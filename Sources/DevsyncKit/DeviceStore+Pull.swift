#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import SQLiteKit
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
            // The history names the server each value came from (issue 47).
            let source = try db.value("SELECT value FROM meta WHERE key = 'server'")?.string.map { command + " from " + $0 } ?? command
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
            // Many devices a statement: each statement is a trip to SQLite's thread, and
            // 100,000 devices one at a time spent seconds on the trips alone.
            for start in stride(from: 0, to: devices.count, by: Self.pullBatch) {
                let batch = devices[start..<min(start + Self.pullBatch, devices.count)]
                let rows = Array(repeating: "(?, ?, ?, ?)", count: batch.count).joined(separator: ", ")
                try db.execute("""
                    INSERT INTO device (id, type, meterPointDescription, installationDate) VALUES \(rows)
                    ON CONFLICT (id) DO UPDATE SET type = excluded.type,
                        meterPointDescription = excluded.meterPointDescription, installationDate = excluded.installationDate
                    """, batch.flatMap { device -> [SQLValue] in
                        [.text(device.id), .text(device.type.rawValue), .text(device.meterPointDescription),
                         .optional(device.installationDate.map(StoredDate.format))]
                    })
                try db.execute("INSERT OR IGNORE INTO seen (id) VALUES " + Array(repeating: "(?)", count: batch.count).joined(separator: ", "),
                               batch.map { .text($0.id) })
            }
            for device in devices {
                guard let old = before[Array(device.id.utf8)] else { continue }
                let serverValue = device.installationDate.map(StoredDate.format)
                guard old.server != serverValue else { continue }
                try DeviceHistory.log(db, at: now, device: device.id, .pulled, old: old.server, new: serverValue, detail: source)
                if old.pending {
                    try DeviceHistory.log(db, at: now, device: device.id, .conflict, old: old.local, new: serverValue,
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

    /// Devices written per statement by a pull: 4 values each, well under SQLite's 32,766.
    static let pullBatch = 500

    /// A server value that changed under a pending local change.
    public struct Conflict: Sendable, Equatable {
        public let deviceID: String
        /// What the server has now; nil: not installed.
        public let serverDate: Date?
        /// What the pending change says, and what a sync will send.
        public let localDate: Date?
    }
}
