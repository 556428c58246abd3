#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import GRDB
import ToolboxKit

/// The local SQLite store (WAL mode, versioned migrations): the server's copy of every
/// device, and the queue of changes not yet confirmed by the server. A change leaves the
/// queue only in the transaction that records the server's 2xx for it, so no crash loses one.
public final class DeviceStore: Sendable {
    /// Marks a devsync store in the SQLite header, so another program's database is refused.
    static let applicationID: Int32 = 0x4445_5653  // "DEVS"
    static let knownMigrations = ["v1"]

    public let path: String
    private let reader: any DatabaseReader
    /// Nil when the store could only be opened read-only: reading works, changing says why not.
    private let writer: (any DatabaseWriter)?

    /// Opens or creates the store at `path`, creating its folder (0700). A new store is built
    /// aside under a temporary name and linked into place whole, so an interrupted first use
    /// leaves nothing and concurrent first uses all open the one store that won. A store that
    /// cannot be written (a read-only file or file system) is opened read-only.
    public init(path: String) throws(ToolError) {
        self.path = path
        do {
            try Self.makeFolder(for: path)
            var configuration = Configuration()
            // Two devsync processes wait for each other's short write transactions.
            configuration.busyMode = .timeout(30)
            configuration.label = "devsync"
            try Self.createIfMissing(path)
            if Self.isWritable(path) {
                let pool = try DatabasePool(path: path, configuration: configuration)
                try pool.write { db in try Self.check(db, path: path, repairing: true) }
                try Self.migrator.migrate(pool)
                reader = pool
                writer = pool
            } else {
                configuration.readonly = true
                let queue = try DatabaseQueue(path: Self.readOnlyLocation(path), configuration: configuration)
                try queue.read { db in try Self.check(db, path: path, repairing: false) }
                reader = queue
                writer = nil
            }
        } catch let error as ToolError {
            throw error
        } catch {
            throw .io(path: path, reason: Self.describe(error))
        }
    }

    /// Where SQLite can read a store we may not write. In WAL mode a reader needs the shared
    /// memory file, which it cannot create in a folder it may not write; with no journal left
    /// beside the store (its writer closed cleanly), the file alone is the whole store, and
    /// SQLite reads it as immutable. Otherwise the journal is used as it is.
    static func readOnlyLocation(_ path: String) -> String {
        guard access(path + "-wal", F_OK) != 0 else { return path }
        var escaped = ""
        for character in path {
            switch character {
            case "%": escaped += "%25"
            case "?": escaped += "%3F"
            case "#": escaped += "%23"
            default: escaped.append(character)
            }
        }
        return "file:" + escaped + "?immutable=1"
    }

    /// Whether this process may write the store and the folder its journal lives in.
    static func isWritable(_ path: String) -> Bool {
        let folder = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        return access(path, W_OK) == 0 && access(folder.isEmpty ? "/" : folder, W_OK) == 0
    }

    /// First use: a complete store (schema, application id, WAL mode) built under a temporary
    /// name, then hard-linked to `path`, which fails if another process got there first (its
    /// store is used then). An empty file, left by an older devsync that was interrupted
    /// before writing anything, counts as missing.
    static func createIfMissing(_ path: String) throws {
        var info = stat()
        if lstat(path, &info) == 0 {
            guard info.st_size == 0, info.st_mode & S_IFMT == S_IFREG else { return }
            unlink(path)
        } else if errno != ENOENT {
            return  // Let SQLite report what is wrong with it.
        }
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let random = String(UInt64.random(in: 0...UInt64.max), radix: 16)
        let temporary = folder + "/" + LocalFile.temporaryPrefix(for: name) + String(getpid()) + "." + String(repeating: "0", count: 16 - random.count) + random
        defer { for suffix in ["", "-wal", "-shm", "-journal"] { unlink(temporary + suffix) } }
        do {
            let queue = try DatabaseQueue(path: temporary)
            try queue.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA journal_mode = WAL") }
            try migrator.migrate(queue)
            try queue.write { db in try db.execute(sql: "PRAGMA application_id = \(applicationID)") }
            try queue.close()
        }
        let fd = open(temporary, O_RDONLY | O_CLOEXEC)
        if fd >= 0 { fsync(fd); close(fd) }
        if link(temporary, path) != 0 && errno != EEXIST {
            throw ToolError.io(path: path, reason: String(cString: strerror(errno)))
        }
    }

    /// Checks the file is ours and of a schema we know, before anything writes to it.
    /// With `repairing`, a store an older devsync left half-made (our tables, all empty, but
    /// no application id yet) is completed instead of refused.
    static func check(_ db: Database, path: String, repairing: Bool) throws {
        let id = try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0
        let tables = try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master WHERE type = 'table'") ?? 0
        if try id == 0 && tables > 0 && repairing && isEmptyStoreOfOurs(db) {
            try db.execute(sql: "PRAGMA application_id = \(applicationID)")
            return
        }
        if id == 0 && tables > 0 {
            throw ToolError.io(path: path, reason: "not a devsync store (another program's SQLite database); refusing to change it")
        }
        if id != 0 && id != applicationID {
            throw ToolError.io(path: path, reason: "not a devsync store; refusing to change it")
        }
        if try db.tableExists("grdb_migrations") {
            let applied = try Self.migrator.appliedIdentifiers(db)
            let unknown = applied.subtracting(knownMigrations)
            if !unknown.isEmpty {
                throw ToolError.io(path: path, reason: "written by a newer devsync (schema \(unknown.sorted().joined(separator: ", "))); refusing to change it")
            }
        }
    }

    /// Only tables of ours, and no row in any of them but the migration log.
    static func isEmptyStoreOfOurs(_ db: Database) throws -> Bool {
        let names = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'")
        let ours: Set<String> = ["device", "change", "meta", "grdb_migrations"]
        guard Set(names).isSubset(of: ours) else { return false }
        for name in names where name != "grdb_migrations" {
            if try Int.fetchOne(db, sql: "SELECT count(*) FROM \(name)") != 0 { return false }
        }
        return true
    }

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: """
                CREATE TABLE device (
                    id TEXT PRIMARY KEY NOT NULL,
                    type TEXT NOT NULL,
                    meterPointDescription TEXT NOT NULL,
                    installationDate TEXT
                );
                CREATE TABLE change (
                    deviceID TEXT PRIMARY KEY NOT NULL,
                    installationDate TEXT,
                    revision INTEGER NOT NULL,
                    state TEXT NOT NULL CHECK (state IN ('pending', 'rejected')),
                    attempts INTEGER NOT NULL DEFAULT 0,
                    lastError TEXT,
                    recordedAt TEXT NOT NULL,
                    claimToken TEXT,
                    claimPID INTEGER
                );
                CREATE TABLE meta (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL);
                """)
        }
        return migrator
    }

    // MARK: - Reading

    public func devices() throws(ToolError) -> [Device] {
        try read { db in
            try Row.fetchAll(db, sql: Self.deviceQuery + " ORDER BY d.id").map(Self.device)
        }
    }

    public func device(_ id: String) throws(ToolError) -> Device? {
        try read { db in
            try Row.fetchOne(db, sql: Self.deviceQuery + " WHERE d.id = ?", arguments: [id]).map(Self.device)
        }
    }

    /// Devices with a change not yet through, in the order they were recorded.
    public func pending() throws(ToolError) -> [Device] {
        try read { db in
            try Row.fetchAll(db, sql: Self.deviceQuery + " WHERE c.deviceID IS NOT NULL ORDER BY c.recordedAt, c.rowid")
                .map(Self.device)
        }
    }

    public struct Status: Sendable, Equatable {
        public let devices: Int
        public let installed: Int
        public let pending: Int
        public let rejected: Int
        public let lastSync: Date?
        public let lastPull: Date?
    }

    public func status() throws(ToolError) -> Status {
        let devices = try self.devices()
        return try read { db in
            Status(devices: devices.count,
                   installed: devices.filter { $0.installationDate != nil }.count,
                   pending: devices.filter { $0.syncState == .pending }.count,
                   rejected: devices.filter { $0.syncState == .rejected }.count,
                   lastSync: StoredDate.parse(try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'lastSync'")),
                   lastPull: StoredDate.parse(try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'lastPull'")))
        }
    }

    // MARK: - Local changes

    /// Records an installation date (nil: not installed) for `id`, replacing any change not
    /// yet sent. Refuses an id that is not in the store.
    public func record(_ id: String, installationDate: Date?, at now: Date = Date()) throws(ToolError) {
        try write { db in
            guard try Int.fetchOne(db, sql: "SELECT 1 FROM device WHERE id = ?", arguments: [id]) != nil else {
                throw ToolError.missing("no device \(id) in the local store; devsync pull refreshes the list")
            }
            let value = installationDate.map(StoredDate.format)
            // Replaced, not updated in place: the new row gets the next rowid, so changes recorded
            // in the same second keep the order they were recorded in. A claim on it stays.
            let old = try Row.fetchOne(db, sql: "SELECT revision, claimToken, claimPID FROM change WHERE deviceID = ?", arguments: [id])
            try db.execute(sql: "DELETE FROM change WHERE deviceID = ?", arguments: [id])
            let revision: Int = (old?["revision"] ?? 0) + 1
            let token: String? = old?["claimToken"]
            let pid: Int64? = old?["claimPID"]
            try db.execute(sql: """
                INSERT INTO change (deviceID, installationDate, revision, state, attempts, lastError, recordedAt, claimToken, claimPID)
                VALUES (?, ?, ?, 'pending', 0, NULL, ?, ?, ?)
                """, arguments: [id, value, revision, StoredDate.format(now), token, pid])
        }
    }

    /// Drops the local change for `id`. Returns false when there was none.
    @discardableResult
    public func discard(_ id: String) throws(ToolError) -> Bool {
        try write { db in
            try db.execute(sql: "DELETE FROM change WHERE deviceID = ?", arguments: [id])
            return db.changesCount > 0
        }
    }

    // MARK: - Pull

    /// Replaces the server's copy with `devices`. Local changes live apart and are never
    /// touched; a device gone from the server stays while it has a change.
    public func replaceServerCopy(_ devices: [ServerDevice], at now: Date = Date()) throws(ToolError) {
        try write { db in
            try db.execute(sql: "CREATE TEMP TABLE IF NOT EXISTS seen (id TEXT PRIMARY KEY)")
            try db.execute(sql: "DELETE FROM seen")
            for device in devices {
                try db.execute(sql: """
                    INSERT INTO device (id, type, meterPointDescription, installationDate) VALUES (?, ?, ?, ?)
                    ON CONFLICT (id) DO UPDATE SET type = excluded.type,
                        meterPointDescription = excluded.meterPointDescription, installationDate = excluded.installationDate
                    """, arguments: [device.id, device.type.rawValue, device.meterPointDescription,
                                     device.installationDate.map(StoredDate.format)])
                try db.execute(sql: "INSERT OR IGNORE INTO seen (id) VALUES (?)", arguments: [device.id])
            }
            try db.execute(sql: """
                DELETE FROM device WHERE id NOT IN (SELECT id FROM seen) AND id NOT IN (SELECT deviceID FROM change)
                """)
            try db.execute(sql: "INSERT OR REPLACE INTO meta (key, value) VALUES ('lastPull', ?)", arguments: [StoredDate.format(now)])
        }
    }

    // MARK: - Sync

    /// A change taken by one sync process, with the revision it is sending.
    public struct Claim: Sendable, Equatable {
        public let deviceID: String
        public let installationDate: Date?
        public let revision: Int

        /// The PATCH body: the full intended value, so sending it twice is harmless.
        public var body: [UInt8] {
            let value = installationDate.map { "\"\(StoredDate.format($0))\"" } ?? "null"
            return Array("{\"installationDate\":\(value)}".utf8)
        }
    }

    /// Takes every pending change that no live process is sending, for `token`. A claim left
    /// by a process that died (kill -9) is taken over. Returns the claims and how many
    /// pending changes another live process holds.
    /// A change whose stored date cannot be read is never sent (it would go out as "not
    /// installed"): it is left pending and returned in `damaged`, for the user to fix or discard.
    public func claim(token: String, pid: Int32 = getpid()) throws(ToolError) -> (claims: [Claim], heldElsewhere: Int, damaged: [String]) {
        try write { db in
            let rows = try Row.fetchAll(db, sql: """
                SELECT deviceID, installationDate, revision, claimToken, claimPID FROM change WHERE state = 'pending'
                ORDER BY recordedAt, rowid
                """)
            var claims: [Claim] = []
            var elsewhere = 0
            var damaged: [String] = []
            for row in rows {
                let holder: String? = row["claimToken"]
                let holderPID: Int32? = row["claimPID"]
                if let holder, holder != token, let holderPID, holderPID != pid, Self.isAlive(holderPID) {
                    elsewhere += 1
                    continue
                }
                let id: String = row["deviceID"]
                let stored: String? = row["installationDate"]
                let date = StoredDate.parse(stored)
                if stored != nil && date == nil {
                    damaged.append(id)
                    continue
                }
                try db.execute(sql: "UPDATE change SET claimToken = ?, claimPID = ? WHERE deviceID = ?",
                               arguments: [token, pid, id])
                claims.append(Claim(deviceID: id, installationDate: date, revision: row["revision"]))
            }
            return (claims, elsewhere, damaged)
        }
    }

    /// The server took `claim`: in one transaction, record its new value and drop the change,
    /// unless the installer recorded a newer one meanwhile (then that one stays pending).
    public func markSynced(_ claim: Claim, at now: Date = Date()) throws(ToolError) {
        try write { db in
            try db.execute(sql: "UPDATE device SET installationDate = ? WHERE id = ?",
                           arguments: [claim.installationDate.map(StoredDate.format), claim.deviceID])
            try db.execute(sql: "DELETE FROM change WHERE deviceID = ? AND revision = ?", arguments: [claim.deviceID, claim.revision])
            try db.execute(sql: "UPDATE change SET claimToken = NULL, claimPID = NULL WHERE deviceID = ?", arguments: [claim.deviceID])
            try db.execute(sql: "INSERT OR REPLACE INTO meta (key, value) VALUES ('lastSync', ?)", arguments: [StoredDate.format(now)])
        }
    }

    /// The server refused `claim` (4xx): keep it, marked rejected with the server's message.
    public func markRejected(_ claim: Claim, message: String) throws(ToolError) {
        try write { db in
            try db.execute(sql: """
                UPDATE change SET state = 'rejected', attempts = attempts + 1, lastError = ?, claimToken = NULL, claimPID = NULL
                WHERE deviceID = ? AND revision = ?
                """, arguments: [message, claim.deviceID, claim.revision])
            try db.execute(sql: "UPDATE change SET claimToken = NULL, claimPID = NULL WHERE deviceID = ?", arguments: [claim.deviceID])
        }
    }

    /// A try failed for a transient reason: count it and keep the message; the claim stays.
    public func recordFailedAttempt(_ claim: Claim, message: String) throws(ToolError) {
        try write { db in
            try db.execute(sql: "UPDATE change SET attempts = attempts + 1, lastError = ? WHERE deviceID = ?",
                           arguments: [message, claim.deviceID])
        }
    }

    /// Gives back every claim `token` still holds: those changes stay pending for a later sync.
    public func release(token: String) throws(ToolError) {
        try write { db in
            try db.execute(sql: "UPDATE change SET claimToken = NULL, claimPID = NULL WHERE claimToken = ?", arguments: [token])
        }
    }

    // MARK: - Helpers

    static let deviceQuery = """
        SELECT d.id, d.type, d.meterPointDescription, d.installationDate AS serverDate,
               c.deviceID AS changeID, c.installationDate AS changeDate, c.revision, c.state, c.attempts,
               c.lastError, c.recordedAt, c.claimPID
        FROM device d LEFT JOIN change c ON c.deviceID = d.id
        """

    static func device(_ row: Row) -> Device {
        var change: PendingChange?
        if let changeID: String = row["changeID"] {
            change = PendingChange(deviceID: changeID, installationDate: StoredDate.parse(row["changeDate"]),
                                   revision: row["revision"], state: PendingChange.State(rawValue: row["state"]) ?? .pending,
                                   attempts: row["attempts"], lastError: row["lastError"],
                                   recordedAt: StoredDate.parse(row["recordedAt"]) ?? Date(timeIntervalSince1970: 0),
                                   claimedBy: row["claimPID"])
        }
        return Device(id: row["id"], type: DeviceType(rawValue: row["type"]),
                      meterPointDescription: row["meterPointDescription"],
                      serverDate: StoredDate.parse(row["serverDate"]), change: change)
    }

    static func isAlive(_ pid: Int32) -> Bool {
        kill(pid, 0) == 0 || errno == EPERM
    }

    /// `mkdir -p` of the folder holding `path`.
    static func makeFolder(for path: String) throws {
        let bytes = Array(path.utf8)
        for index in bytes.indices.dropFirst() where bytes[index] == UInt8(ascii: "/") {
            let folder = String(decoding: bytes[..<index], as: UTF8.self)
            if mkdir(folder, 0o700) != 0 && errno != EEXIST {
                throw ToolError.io(path: folder, reason: String(cString: strerror(errno)))
            }
        }
    }

    static func describe(_ error: any Error) -> String {
        if let error = error as? DatabaseError {
            return Terminal.sanitizeField(error.message ?? "SQLite error \(error.resultCode.rawValue)")
        }
        return Terminal.sanitizeField(String(describing: error))
    }

    private func read<T>(_ body: (Database) throws -> T) throws(ToolError) -> T {
        do { return try reader.read(body) } catch let error as ToolError { throw error } catch {
            throw .io(path: path, reason: Self.describe(error))
        }
    }

    private func write<T>(_ body: (Database) throws -> T) throws(ToolError) -> T {
        guard let writer else { throw .io(path: path, reason: "the store is read-only; nothing was changed") }
        do { return try writer.write(body) } catch let error as ToolError { throw error } catch {
            throw .io(path: path, reason: Self.describe(error))
        }
    }
}
