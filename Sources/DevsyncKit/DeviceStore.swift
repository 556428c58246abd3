#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import SQLiteNIO
import ToolboxKit

/// The local SQLite store (WAL mode, versioned schema; see `StoreSchema`): the server's copy
/// of every device, and the queue of changes not yet confirmed by the server. A change leaves
/// the queue only in the transaction that records the server's 2xx for it, so no crash loses one.
public final class DeviceStore: Sendable {
    static var applicationID: Int32 { StoreSchema.applicationID }

    public let path: String
    /// The command using the store, named in the history entries it writes.
    public let command: String
    private let connection: StoreConnection
    /// False when the store could only be opened read-only: reading works, changing says why not.
    private let writable: Bool

    /// Opens or creates the store at `path`, creating its folder (0700). A new store is built
    /// aside under a temporary name and linked into place whole, so an interrupted first use
    /// leaves nothing and concurrent first uses all open the one store that won. A store that
    /// cannot be written (a read-only file or file system) is opened read-only.
    public init(path: String, command: String = "devsync") throws(ToolError) {
        self.path = path
        self.command = command
        do {
            if let slash = path.lastIndex(of: "/"), slash != path.startIndex {
                try LocalFile.makeDirectories(String(path[..<slash]), mode: 0o700)
            }
            try StoreSchema.createIfMissing(path)
            if StoreSchema.isWritable(path) {
                connection = try StoreConnection(path)
                writable = true
                try connection.transaction(.write) { db in try StoreSchema.check(db, path: path, repairing: true) }
                try StoreSchema.migrate(connection)
            } else {
                connection = try StoreConnection(StoreSchema.readOnlyLocation(path))
                writable = false
                try connection.transaction(.read) { db in try StoreSchema.check(db, path: path, repairing: false) }
            }
        } catch let error as ToolError {
            throw error
        } catch {
            throw .io(path: path, reason: StoreSchema.describe(error))
        }
    }

    deinit {
        // The last connection to close folds the journal back into the store.
        connection.close()
    }

    // MARK: - Reading

    public func devices() throws(ToolError) -> [Device] {
        try read { db in try db.rows(Self.deviceQuery + " ORDER BY d.id").map(Self.device) }
    }

    public func device(_ id: String) throws(ToolError) -> Device? {
        try read { db in try db.rows(Self.deviceQuery + " WHERE d.id = ?", [.text(id)]).first.map(Self.device) }
    }

    /// Devices with a change not yet through, in the order they were recorded.
    public func pending() throws(ToolError) -> [Device] {
        try read { db in
            try db.rows(Self.deviceQuery + " WHERE c.deviceID IS NOT NULL ORDER BY c.recordedAt, c.rowid").map(Self.device)
        }
    }

    public struct Status: Sendable, Equatable {
        public let devices: Int
        public let installed: Int
        public let pending: Int
        public let rejected: Int
        /// Pending changes whose device the server changed meanwhile.
        public let conflicts: Int
        public let lastSync: Date?
        public let lastPull: Date?
    }

    public func status() throws(ToolError) -> Status {
        try read { db in
            let devices = try db.rows(Self.deviceQuery).map(Self.device)
            return Status(devices: devices.count,
                          installed: devices.filter { $0.installationDate != nil }.count,
                          pending: devices.filter { $0.syncState == .pending }.count,
                          rejected: devices.filter { $0.syncState == .rejected }.count,
                          conflicts: devices.filter { $0.change?.serverChange != nil }.count,
                          lastSync: StoredDate.parse(try db.value("SELECT value FROM meta WHERE key = 'lastSync'")?.string),
                          lastPull: StoredDate.parse(try db.value("SELECT value FROM meta WHERE key = 'lastPull'")?.string))
        }
    }

    /// The history, newest first: of one device or all, since a time or all of it.
    public func history(device: String? = nil, since: Date? = nil) throws(ToolError) -> [HistoryEvent] {
        var conditions: [String] = []
        var binds: [SQLiteData] = []
        if let device { conditions.append("deviceID = ?"); binds.append(.text(device)) }
        if let since { conditions.append("at >= ?"); binds.append(.text(StoredDate.format(since))) }
        let filter = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
        return try read { db in
            try db.rows("SELECT seq, at, deviceID, event, oldValue, newValue, detail FROM history" + filter + " ORDER BY seq DESC", binds)
                .map { row in
                    HistoryEvent(seq: row.column("seq")?.integer ?? 0,
                                 at: StoredDate.parse(row.column("at")?.string) ?? Date(timeIntervalSince1970: 0),
                                 device: row.column("deviceID")?.string ?? "",
                                 event: HistoryEvent.Kind(rawValue: row.column("event")?.string ?? "") ?? .recorded,
                                 oldValue: StoredDate.parse(row.column("oldValue")?.string),
                                 newValue: StoredDate.parse(row.column("newValue")?.string),
                                 detail: row.column("detail")?.string ?? "")
                }
        }
    }

    // MARK: - Local changes

    /// Records an installation date (nil: not installed) for `id`, replacing any change not
    /// yet sent. Refuses an id that is not in the store.
    public func record(_ id: String, installationDate: Date?, at now: Date = Date()) throws(ToolError) {
        try write { db in
            let before = try Self.intendedValue(db, id)
            try Self.record(db, id, installationDate: installationDate, at: now)
            try Self.log(db, at: now, device: id, .recorded, old: before, new: installationDate.map(StoredDate.format), detail: command)
        }
    }

    /// What the device has here now: its pending change's value, else the server's.
    private static func intendedValue(_ db: StoreStatements, _ id: String) throws -> String? {
        let row = try db.rows("""
            SELECT c.deviceID AS changeID, c.installationDate AS local, d.installationDate AS server
            FROM device d LEFT JOIN change c ON c.deviceID = d.id WHERE d.id = ?
            """, [.text(id)]).first
        return row?.column("changeID")?.string != nil ? row?.column("local")?.string : row?.column("server")?.string
    }

    /// Appends one entry to the history, in the transaction of what it records.
    static func log(_ db: StoreStatements, at: Date, device: String, _ event: HistoryEvent.Kind,
                    old: String? = nil, new: String? = nil, detail: String = "") throws {
        try db.execute("INSERT INTO history (at, deviceID, event, oldValue, newValue, detail) VALUES (?, ?, ?, ?, ?, ?)",
                       [.text(StoredDate.format(at)), .text(device), .text(event.rawValue), .optional(old), .optional(new), .text(detail)])
    }

    /// Records every change in one transaction: all of them, or (on any error, such as an id
    /// not in the store) none. As with `record` one at a time, a later change to the same
    /// device replaces an earlier one, and they keep the order they came in. Done in a few
    /// set-wise statements rather than four per change, so 10,000 take a fraction of a second.
    public func recordAll(_ changes: [(id: String, installationDate: Date?)], at now: Date = Date()) throws(ToolError) {
        // The last change to each device, in the order of those last changes.
        // Keyed by bytes: `é` and `e` + U+0301 are two devices, though equal as Swift strings.
        var last: [[UInt8]: Int] = [:]
        for (index, change) in changes.enumerated() { last[Array(change.id.utf8)] = index }
        let kept = changes.indices.filter { last[Array(changes[$0].id.utf8)] == $0 }.map { changes[$0] }
        try write { db in
            try db.execute("CREATE TEMP TABLE IF NOT EXISTS incoming (seq INTEGER PRIMARY KEY, id TEXT NOT NULL, date TEXT)")
            try db.execute("DELETE FROM incoming")
            // Many rows a statement: SQLite allows 32,766 bound values in one.
            var start = 0
            while start < kept.count {
                let slice = kept[start..<min(start + 500, kept.count)]
                let values = Array(repeating: "(?, ?, ?)", count: slice.count).joined(separator: ", ")
                var binds: [SQLiteData] = []
                for (offset, change) in slice.enumerated() {
                    binds += [.integer(start + offset), .text(change.id), .optional(change.installationDate.map(StoredDate.format))]
                }
                try db.execute("INSERT INTO incoming (seq, id, date) VALUES " + values, binds)
                start += slice.count
            }
            if let unknown = try db.value("SELECT id FROM incoming WHERE id NOT IN (SELECT id FROM device) ORDER BY seq LIMIT 1")?.string {
                throw ToolError.missing("no device \(unknown) in the local store; devsync pull refreshes the list")
            }
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
        }
    }

    /// The ids of every device in the store.
    /// Every device id, as stored: a list, not a `Set<String>`, which would take two ids that
    /// differ in bytes but not as Swift strings (`é`, `e` + U+0301) for one.
    public func deviceIDs() throws(ToolError) -> [String] {
        try read { db in try db.rows("SELECT id FROM device").compactMap { $0.column("id")?.string } }
    }

    private static func record(_ db: StoreStatements, _ id: String, installationDate: Date?, at now: Date) throws {
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

    /// Drops the local change for `id`. Returns false when there was none.
    @discardableResult
    public func discard(_ id: String) throws(ToolError) -> Bool {
        try write { db in
            let dropped = try db.rows("SELECT installationDate FROM change WHERE deviceID = ?", [.text(id)]).first
            try db.execute("DELETE FROM change WHERE deviceID = ?", [.text(id)])
            guard let dropped else { return false }
            try Self.log(db, at: Date(), device: id, .discarded, old: dropped.column("installationDate")?.string, detail: command)
            return true
        }
    }

    // MARK: - Pull

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

    // MARK: - Sync

    /// A change taken by one sync process, with the revision it is sending.
    public struct Claim: Sendable, Equatable {
        public let deviceID: String
        public let installationDate: Date?
        public let revision: Int

        /// Where it is sent: `PATCH /devices/ID`.
        public var path: String { "/devices/" + ResourceID.pathSegment(deviceID) }

        /// The PATCH body: the full intended value, so sending it twice is harmless.
        public var body: [UInt8] {
            Array(JSONCoding.encode(["installationDate": installationDate.map(StoredDate.format)]))
        }
    }

    /// Takes every pending change that no live process is sending, for `token`. A claim left
    /// by a process that died (kill -9) is taken over. Returns the claims and how many
    /// pending changes another live process holds.
    /// A change whose stored date cannot be read is never sent (it would go out as "not
    /// installed"): it is left pending and returned in `damaged`, for the user to fix or discard.
    public func claim(token: String, pid: Int32 = getpid()) throws(ToolError) -> (claims: [Claim], heldElsewhere: Int, damaged: [String]) {
        try write { db in
            let rows = try db.rows("""
                SELECT deviceID, installationDate, revision, claimToken, claimPID FROM change WHERE state = 'pending'
                ORDER BY recordedAt, rowid
                """)
            var claims: [Claim] = []
            var elsewhere = 0
            var damaged: [String] = []
            for row in rows {
                let holder = row.column("claimToken")?.string
                let holderPID = row.column("claimPID")?.integer.flatMap { Int32(exactly: $0) }
                if let holder, holder != token, let holderPID, holderPID != pid, !LocalFile.isDead(holderPID) {
                    elsewhere += 1
                    continue
                }
                let id = row.column("deviceID")?.string ?? ""
                let (date, isDamaged) = StoredDate.read(row.column("installationDate"))
                if isDamaged {
                    damaged.append(id)
                    continue
                }
                try db.execute("UPDATE change SET claimToken = ?, claimPID = ? WHERE deviceID = ?",
                               [.text(token), .integer(Int(pid)), .text(id)])
                claims.append(Claim(deviceID: id, installationDate: date, revision: row.column("revision")?.integer ?? 0))
            }
            return (claims, elsewhere, damaged)
        }
    }

    /// What `claim` would take, without taking anything: every pending change in the order
    /// sync sends them, and the ids of those whose stored date cannot be read. For
    /// `sync --dry-run`.
    public func planned() throws(ToolError) -> (changes: [Claim], damaged: [String]) {
        try read { db in
            var changes: [Claim] = []
            var damaged: [String] = []
            for row in try db.rows("""
                SELECT deviceID, installationDate, revision FROM change WHERE state = 'pending' ORDER BY recordedAt, rowid
                """) {
                let id = row.column("deviceID")?.string ?? ""
                let (date, isDamaged) = StoredDate.read(row.column("installationDate"))
                if isDamaged { damaged.append(id); continue }
                changes.append(Claim(deviceID: id, installationDate: date, revision: row.column("revision")?.integer ?? 0))
            }
            return (changes, damaged)
        }
    }

    /// The server took `claim`: in one transaction, record its new value and drop the change,
    /// unless the installer recorded a newer one meanwhile (then that one stays pending).
    public func markSynced(_ claim: Claim, at now: Date = Date()) throws(ToolError) {
        try write { db in
            let id = SQLiteData.text(claim.deviceID)
            let server = try db.value("SELECT installationDate FROM device WHERE id = ?", [id])?.string
            let attempts = try db.value("SELECT attempts FROM change WHERE deviceID = ?", [id])?.integer ?? 0
            try Self.log(db, at: now, device: claim.deviceID, .synced, old: server, new: claim.installationDate.map(StoredDate.format),
                         detail: "attempt \(attempts + 1)")
            try db.execute("UPDATE device SET installationDate = ? WHERE id = ?",
                           [.optional(claim.installationDate.map(StoredDate.format)), id])
            try db.execute("DELETE FROM change WHERE deviceID = ? AND revision = ?", [id, .integer(claim.revision)])
            try db.execute("UPDATE change SET claimToken = NULL, claimPID = NULL WHERE deviceID = ?", [id])
            try db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('lastSync', ?)", [.text(StoredDate.format(now))])
        }
    }

    /// The server refused `claim` (4xx): keep it, marked rejected with the server's message.
    public func markRejected(_ claim: Claim, message: String) throws(ToolError) {
        try write { db in
            let id = SQLiteData.text(claim.deviceID)
            try db.execute("""
                UPDATE change SET state = 'rejected', attempts = attempts + 1, lastError = ?, claimToken = NULL, claimPID = NULL
                WHERE deviceID = ? AND revision = ?
                """, [.text(message), id, .integer(claim.revision)])
            try db.execute("UPDATE change SET claimToken = NULL, claimPID = NULL WHERE deviceID = ?", [id])
            let attempts = try db.value("SELECT attempts FROM change WHERE deviceID = ?", [id])?.integer ?? 0
            try Self.log(db, at: Date(), device: claim.deviceID, .rejected, new: claim.installationDate.map(StoredDate.format),
                         detail: "attempt \(attempts): \(message)")
        }
    }

    /// A try failed for a transient reason: count it and keep the message; the claim stays.
    public func recordFailedAttempt(_ claim: Claim, message: String) throws(ToolError) {
        try write { db in
            try db.execute("UPDATE change SET attempts = attempts + 1, lastError = ? WHERE deviceID = ?",
                           [.text(message), .text(claim.deviceID)])
            let attempts = try db.value("SELECT attempts FROM change WHERE deviceID = ?", [.text(claim.deviceID)])?.integer ?? 0
            try Self.log(db, at: Date(), device: claim.deviceID, .failed, new: claim.installationDate.map(StoredDate.format),
                         detail: "attempt \(attempts): \(message)")
        }
    }

    /// Gives back every claim `token` still holds: those changes stay pending for a later sync.
    public func release(token: String) throws(ToolError) {
        try write { db in
            try db.execute("UPDATE change SET claimToken = NULL, claimPID = NULL WHERE claimToken = ?", [.text(token)])
        }
    }

    // MARK: - Helpers

    static let deviceQuery = """
        SELECT d.id, d.type, d.meterPointDescription, d.installationDate AS serverDate,
               c.deviceID AS changeID, c.installationDate AS changeDate, c.revision, c.state, c.attempts,
               c.lastError, c.recordedAt, c.claimPID, c.conflict, c.conflictServerDate
        FROM device d LEFT JOIN change c ON c.deviceID = d.id
        """

    static func device(_ row: SQLiteRow) -> Device {
        func text(_ name: String) -> String? { row.column(name)?.string }
        func integer(_ name: String) -> Int? { row.column(name)?.integer }
        var change: PendingChange?
        if let changeID = text("changeID") {
            change = PendingChange(deviceID: changeID, installationDate: StoredDate.parse(text("changeDate")),
                                   revision: integer("revision") ?? 0,
                                   state: text("state").flatMap(PendingChange.State.init(rawValue:)) ?? .pending,
                                   attempts: integer("attempts") ?? 0, lastError: text("lastError"),
                                   recordedAt: StoredDate.parse(text("recordedAt")) ?? Date(timeIntervalSince1970: 0),
                                   claimedBy: integer("claimPID").flatMap { Int32(exactly: $0) },
                                   serverChange: integer("conflict") == 1 ? .init(installationDate: StoredDate.parse(text("conflictServerDate"))) : nil)
        }
        return Device(id: text("id") ?? "", type: DeviceType(rawValue: text("type") ?? ""),
                      meterPointDescription: text("meterPointDescription") ?? "",
                      serverDate: StoredDate.parse(text("serverDate")), change: change)
    }

    private func read<T>(_ body: (StoreStatements) throws -> T) throws(ToolError) -> T {
        do { return try connection.transaction(.read, body) } catch let error as ToolError { throw error } catch {
            throw .io(path: path, reason: StoreSchema.describe(error))
        }
    }

    private func write<T>(_ body: (StoreStatements) throws -> T) throws(ToolError) -> T {
        guard writable else { throw .io(path: path, reason: "the store is read-only; nothing was changed") }
        do { return try connection.transaction(.write, body) } catch let error as ToolError { throw error } catch {
            throw .io(path: path, reason: StoreSchema.describe(error))
        }
    }
}
