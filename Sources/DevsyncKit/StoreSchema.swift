#if canImport(Glibc)
import Glibc
#endif
import SQLiteKit
import ToolboxKit

/// The store's tables, how a store is made, and how a file is recognised as one of ours.
enum StoreSchema {
    /// Marks a devsync store in the SQLite header, so another program's database is refused.
    static let applicationID: Int32 = 0x4445_5653  // "DEVS"

    /// Schema changes in order, each applied once in its own transaction; never edit one that
    /// shipped, add another. Applied ones are listed in `grdb_migrations`, the table devsync
    /// 0.1 (built on GRDB's migrator) kept, so that its stores are recognised and upgraded, and
    /// so that 0.1 refuses a newer store instead of changing it.
    static let migrations = SQLiteMigrations(log: "grdb_migrations", [
        ("v1", [
            """
            CREATE TABLE device (
                id TEXT PRIMARY KEY NOT NULL,
                type TEXT NOT NULL,
                meterPointDescription TEXT NOT NULL,
                installationDate TEXT
            )
            """,
            """
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
            )
            """,
            "CREATE TABLE meta (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL)",
        ]),
        // A pull found the server's value changed while this change was pending: `conflict`
        // is 1 and `conflictServerDate` what the server has now (NULL: not installed).
        ("v2", [
            "ALTER TABLE change ADD COLUMN conflict INTEGER NOT NULL DEFAULT 0",
            "ALTER TABLE change ADD COLUMN conflictServerDate TEXT",
        ]),
        // What happened, never rewritten: see `HistoryEvent`.
        ("v3", [
            """
            CREATE TABLE history (
                seq INTEGER PRIMARY KEY AUTOINCREMENT,
                at TEXT NOT NULL,
                deviceID TEXT NOT NULL,
                event TEXT NOT NULL,
                oldValue TEXT,
                newValue TEXT,
                detail TEXT NOT NULL DEFAULT ''
            )
            """,
            "CREATE INDEX history_device ON history (deviceID, seq)",
        ]),
        // How many devices there are, and how many have each server date, kept by SQLite
        // itself as rows come and go (whoever writes them), so that `status` reads a row a
        // distinct date, never the 100,000 rows of a pulled list.
        ("v4", [
            "CREATE TABLE device_total (devices INTEGER NOT NULL)",
            "INSERT INTO device_total (devices) SELECT count(*) FROM device",
            "CREATE TRIGGER device_total_insert AFTER INSERT ON device BEGIN UPDATE device_total SET devices = devices + 1; END",
            "CREATE TRIGGER device_total_delete AFTER DELETE ON device BEGIN UPDATE device_total SET devices = devices - 1; END",
            "CREATE TABLE server_dates (date TEXT PRIMARY KEY NOT NULL, devices INTEGER NOT NULL) WITHOUT ROWID",
            """
            INSERT INTO server_dates (date, devices)
            SELECT installationDate, count(*) FROM device WHERE installationDate IS NOT NULL GROUP BY installationDate
            """,
            """
            CREATE TRIGGER server_dates_insert AFTER INSERT ON device WHEN NEW.installationDate IS NOT NULL BEGIN
                INSERT INTO server_dates (date, devices) VALUES (NEW.installationDate, 1)
                ON CONFLICT (date) DO UPDATE SET devices = devices + 1;
            END
            """,
            """
            CREATE TRIGGER server_dates_delete AFTER DELETE ON device WHEN OLD.installationDate IS NOT NULL BEGIN
                UPDATE server_dates SET devices = devices - 1 WHERE date = OLD.installationDate;
                DELETE FROM server_dates WHERE date = OLD.installationDate AND devices <= 0;
            END
            """,
            """
            CREATE TRIGGER server_dates_update AFTER UPDATE OF installationDate ON device
            WHEN OLD.installationDate IS NOT NEW.installationDate BEGIN
                UPDATE server_dates SET devices = devices - 1 WHERE date = OLD.installationDate;
                DELETE FROM server_dates WHERE date = OLD.installationDate AND devices <= 0;
                INSERT INTO server_dates (date, devices) SELECT NEW.installationDate, 1 WHERE NEW.installationDate IS NOT NULL
                ON CONFLICT (date) DO UPDATE SET devices = devices + 1;
            END
            """,
        ]),
    ])

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
        let temporary = folder + "/" + LocalFile.temporaryPrefix(for: name) + String(getpid()) + "."
            + String(repeating: "0", count: 16 - random.count) + random
        defer { for suffix in ["", "-wal", "-shm", "-journal"] { unlink(temporary + suffix) } }
        let connection = try SQLiteFile(temporary)
        do {
            try connection.executeAlone("PRAGMA journal_mode = WAL")
            try migrations.apply(to: connection)
            try connection.transaction(.write) { db in try db.execute("PRAGMA application_id = \(applicationID)") }
            connection.close()
        } catch {
            connection.close()
            throw error
        }
        // The installer's records are theirs alone: 0600, whatever the umask.
        chmod(temporary, 0o600)
        let fd = open(temporary, O_RDONLY | O_CLOEXEC)
        if fd >= 0 { fsync(fd); close(fd) }
        if link(temporary, path) != 0 && errno != EEXIST {
            throw ToolError.io(path: path, reason: String(cString: strerror(errno)))
        }
    }

    /// Checks the file is ours and of a schema we know, before anything writes to it.
    /// With `repairing`, a store an older devsync left half-made (our tables, all empty, but
    /// no application id yet) is completed instead of refused.
    static func check(_ db: SQLiteStatements, path: String, repairing: Bool) throws {
        let id = try db.value("PRAGMA application_id")?.integer ?? 0
        let tables = try db.value("SELECT count(*) FROM sqlite_master WHERE type = 'table'")?.integer ?? 0
        if try id == 0 && tables > 0 && repairing && isEmptyStoreOfOurs(db) {
            try db.execute("PRAGMA application_id = \(applicationID)")
            return
        }
        if id == 0 && tables > 0 {
            throw ToolError.io(path: path, reason: "not a devsync store (another program's SQLite database); refusing to change it")
        }
        if id != 0 && id != Int(applicationID) {
            throw ToolError.io(path: path, reason: "not a devsync store; refusing to change it")
        }
        let unknown = try migrations.unknown(in: db)
        if !unknown.isEmpty {
            throw ToolError.io(path: path, reason: "written by a newer devsync (schema \(unknown.joined(separator: ", "))); refusing to change it")
        }
    }

    /// Only tables of ours, and no row in any of them but the migration log (and a total of 0).
    static func isEmptyStoreOfOurs(_ db: SQLiteStatements) throws -> Bool {
        let names = try db.rows("SELECT name FROM sqlite_master WHERE type = 'table'").compactMap { $0.column("name")?.string }
        let ours: Set<String> = ["device", "change", "meta", "history", "server_dates", "device_total", "grdb_migrations", "sqlite_sequence"]
        guard Set(names).isSubset(of: ours) else { return false }
        // The kept total is a row of its own, 0 in an empty store.
        for name in names where name != "grdb_migrations" {
            let rows = name == "device_total" ? "SELECT count(*) FROM device_total WHERE devices != 0" : "SELECT count(*) FROM \(name)"
            if try db.value(rows)?.integer != 0 { return false }
        }
        return true
    }

    /// Where SQLite can read a store we may not write, as a URI that opens it read-only. In
    /// WAL mode a reader needs the shared memory file, which it cannot create in a folder it
    /// may not write; with no journal left beside the store (its writer closed cleanly), the
    /// file alone is the whole store, and SQLite reads it as immutable. Otherwise the journal
    /// is used as it is.
    static func readOnlyLocation(_ path: String) -> String {
        SQLiteFile.readOnlyURI(path, immutable: access(path + "-wal", F_OK) != 0)
    }

    /// Whether this process may write the store and the folder its journal lives in.
    static func isWritable(_ path: String) -> Bool {
        let folder = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        return access(path, W_OK) == 0 && access(folder.isEmpty ? "/" : folder, W_OK) == 0
    }

    /// An error of SQLite's in one line, for a message that names the store.
    static func describe(_ error: any Error) -> String {
        if let error = error as? SQLiteError { return Terminal.sanitizeField(error.message) }
        return Terminal.sanitizeField(String(describing: error))
    }
}
