#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import SQLiteKit
import ToolboxKit

/// Local changes: recording an installation date (one or many at once) and discarding one.
/// Each is one write transaction together with its history entry.
extension DeviceStore {
    /// Records an installation date (nil: not installed) for `id`, replacing any change not
    /// yet sent. Refuses an id that is not in the store.
    public func record(_ id: String, installationDate: Date?, at now: Date = Date()) throws(ToolError) {
        try write { db in
            let before = try Self.intendedValue(db, id)
            try Self.record(db, id, installationDate: installationDate, at: now)
            try DeviceHistory.log(db, at: now, device: id, .recorded, old: before, new: installationDate.map(StoredDate.format), detail: command)
        }
    }

    /// What the device has here now: its pending change's value, else the server's.
    fileprivate static func intendedValue(_ db: SQLiteStatements, _ id: String) throws -> String? {
        let row = try db.rows("""
            SELECT c.deviceID AS changeID, c.installationDate AS local, d.installationDate AS server
            FROM device d LEFT JOIN change c ON c.deviceID = d.id WHERE d.id = ?
            """, [.text(id)]).first
        return row?.column("changeID")?.string != nil ? row?.column("local")?.string : row?.column("server")?.string
    }

    /// Records every change in one transaction: all of them, or (on any error, such as an id
    /// not in the store) none. As with `record` one at a time, a later change to the same
    /// device replaces an earlier one, and they keep the order they came in. Done in a few
    /// set-wise statements rather than four per change, so 10,000 take a fraction of a second.
    /// `skippingUnchanged` (import) leaves out a change that would give a device the value it
    /// has here already. Returns how many changes were recorded.
    @discardableResult
    public func recordAll(_ changes: [(id: String, installationDate: Date?)], at now: Date = Date(),
                          skippingUnchanged: Bool = false) throws(ToolError) -> Int {
        // The last change to each device, in the order of those last changes.
        // Keyed by bytes: `é` and `e` + U+0301 are two devices, though equal as Swift strings.
        var last: [[UInt8]: Int] = [:]
        for (index, change) in changes.enumerated() { last[Array(change.id.utf8)] = index }
        let kept = changes.indices.filter { last[Array(changes[$0].id.utf8)] == $0 }.map { changes[$0] }
        return try write { db in
            try db.execute("CREATE TEMP TABLE IF NOT EXISTS incoming (seq INTEGER PRIMARY KEY, id TEXT NOT NULL, date TEXT)")
            try db.execute("DELETE FROM incoming")
            // Many rows a statement: SQLite allows 32,766 bound values in one.
            var start = 0
            while start < kept.count {
                let slice = kept[start..<min(start + 500, kept.count)]
                let values = Array(repeating: "(?, ?, ?)", count: slice.count).joined(separator: ", ")
                var binds: [SQLValue] = []
                for (offset, change) in slice.enumerated() {
                    binds += [.integer(start + offset), .text(change.id), .optional(change.installationDate.map(StoredDate.format))]
                }
                try db.execute("INSERT INTO incoming (seq, id, date) VALUES " + values, binds)
                start += slice.count
            }
            if let unknown = try db.value("SELECT id FROM incoming WHERE id NOT IN (SELECT id FROM device) ORDER BY seq LIMIT 1")?.string {
                throw ToolError.missing("no device \(unknown) in the local store; devsync pull refreshes the list")
            }
            if skippingUnchanged {
                // `IS` compares NULL (not installed) as a value.
                try db.execute("""
                    DELETE FROM incoming WHERE seq IN (SELECT i.seq FROM incoming i JOIN device d ON d.id = i.id
                        LEFT JOIN change c ON c.deviceID = i.id
                        WHERE (CASE WHEN c.deviceID IS NOT NULL THEN c.installationDate ELSE d.installationDate END) IS i.date)
                    """)
            }
            let recorded = try db.value("SELECT COUNT(*) FROM incoming")?.integer ?? 0
            // As `record`: the old row goes, the new one gets the next rowid, its revision one more,
            // and a claim on it stays.
            try db.execute("DROP TABLE IF EXISTS temp.replaced")
            try db.execute("""
                CREATE TEMP TABLE replaced AS SELECT deviceID, revision, claimToken, claimPID, installationDate AS local FROM change
                WHERE deviceID IN (SELECT id FROM incoming)
                """)
            try db.execute("DELETE FROM change WHERE deviceID IN (SELECT id FROM incoming)")
            try db.execute("""
                INSERT INTO change (deviceID, installationDate, revision, state, attempts, lastError, recordedAt, claimToken, claimPID)
                SELECT i.id, i.date, COALESCE(r.revision, 0) + 1, 'pending', 0, NULL, ?, r.claimToken, r.claimPID
                FROM incoming i LEFT JOIN replaced r ON r.deviceID = i.id ORDER BY i.seq
                """, [.text(StoredDate.format(now))])
            try db.execute("""
                INSERT INTO history (at, deviceID, event, oldValue, newValue, detail)
                SELECT ?, i.id, 'recorded', CASE WHEN r.deviceID IS NOT NULL THEN r.local ELSE d.installationDate END, i.date, ?
                FROM incoming i JOIN device d ON d.id = i.id LEFT JOIN replaced r ON r.deviceID = i.id ORDER BY i.seq
                """, [.text(StoredDate.format(now)), .text(command)])
            try db.execute("DROP TABLE temp.replaced")
            try db.execute("DELETE FROM incoming")
            return recorded
        }
    }

    /// The ids of every device in the store.
    /// Every device id, as stored: a list, not a `Set<String>`, which would take two ids that
    /// differ in bytes but not as Swift strings (`é`, `e` + U+0301) for one.
    public func deviceIDs() throws(ToolError) -> [String] {
        try read { db in try db.rows("SELECT id FROM device").compactMap { $0.column("id")?.string } }
    }

    fileprivate static func record(_ db: SQLiteStatements, _ id: String, installationDate: Date?, at now: Date) throws {
        guard try db.value("SELECT 1 FROM device WHERE id = ?", [.text(id)]) != nil else {
            throw ToolError.missing("no device \(id) in the local store; devsync pull refreshes the list")
        }
        // Replaced, not updated in place: the new row gets the next rowid, so changes recorded
        // in the same second keep the order they were recorded in. A claim on it stays.
        let old = try db.rows("SELECT revision, claimToken, claimPID FROM change WHERE deviceID = ?", [.text(id)]).first
        try db.execute("DELETE FROM change WHERE deviceID = ?", [.text(id)])
        let revision = (old?.column("revision")?.integer ?? 0) + 1
        try db.execute("""
            INSERT INTO change (deviceID, installationDate, revision, state, attempts, lastError, recordedAt, claimToken, claimPID)
            VALUES (?, ?, ?, 'pending', 0, NULL, ?, ?, ?)
            """, [.text(id), .optional(installationDate.map(StoredDate.format)), .integer(revision),
                  .text(StoredDate.format(now)), old?.column("claimToken") ?? .null, old?.column("claimPID") ?? .null])
    }

    /// Drops the local change for `id`; `detail` says why in the history (the command by
    /// default). Returns false when there was none.
    @discardableResult
    public func discard(_ id: String, detail: String? = nil) throws(ToolError) -> Bool {
        try write { db in
            let dropped = try db.rows("SELECT installationDate FROM change WHERE deviceID = ?", [.text(id)]).first
            try db.execute("DELETE FROM change WHERE deviceID = ?", [.text(id)])
            guard let dropped else { return false }
            try DeviceHistory.log(db, at: Date(), device: id, .discarded, old: dropped.column("installationDate")?.string,
                         detail: detail ?? command)
            return true
        }
    }

    /// Drops the local changes of every id in one transaction: all of them, or (when one has
    /// no change) none, the error naming it. Returns how many were dropped.
    @discardableResult
    public func discardAll(_ ids: [String]) throws(ToolError) -> Int {
        try write { db in
            var dropped = 0
            for id in ids {
                guard let row = try db.rows("SELECT installationDate FROM change WHERE deviceID = ?", [.text(id)]).first else {
                    if try db.value("SELECT 1 FROM device WHERE id = ?", [.text(id)]) == nil {
                        throw ToolError.missing("device \(id) not found" + (ids.count > 1 ? "; nothing was discarded" : ""))
                    }
                    throw ToolError.missing("no local change for \(id)" + (ids.count > 1 ? "; nothing was discarded" : ""))
                }
                try db.execute("DELETE FROM change WHERE deviceID = ?", [.text(id)])
                try DeviceHistory.log(db, at: Date(), device: id, .discarded, old: row.column("installationDate")?.string, detail: command)
                dropped += 1
            }
            return dropped
        }
    }

    /// Every device with a local change, for `discard --all`.
    public func changedIDs() throws(ToolError) -> [String] {
        try read { db in try db.rows("SELECT deviceID FROM change ORDER BY recordedAt, rowid").compactMap { $0.column("deviceID")?.string } }
    }

    /// A conflict resolved by keeping the local value: the mark goes, the change stays pending
    /// and replaces the server's value at the next sync. Returns false when there was no conflict.
    @discardableResult
    public func keepLocal(_ id: String) throws(ToolError) -> Bool {
        try write { db in
            let row = try db.rows("SELECT installationDate, conflictServerDate FROM change WHERE deviceID = ? AND conflict = 1",
                                  [.text(id)]).first
            guard let row else { return false }
            try db.execute("UPDATE change SET conflict = 0, conflictServerDate = NULL WHERE deviceID = ?", [.text(id)])
            try DeviceHistory.log(db, at: Date(), device: id, .resolved, old: row.column("conflictServerDate")?.string,
                         new: row.column("installationDate")?.string, detail: "kept the local value over the server's")
            return true
        }
    }
}
