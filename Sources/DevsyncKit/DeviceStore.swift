#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import SQLiteKit
import ToolboxKit

/// The local SQLite store (WAL mode, versioned schema; see `StoreSchema`): the server's copy
/// of every device, and the queue of changes not yet confirmed by the server. A change leaves
/// the queue only in the transaction that records the server's 2xx for it, so no crash loses one.
public final class DeviceStore: Sendable {
    static var applicationID: Int32 { StoreSchema.applicationID }

    public let path: String
    /// The command using the store, named in the history entries it writes.
    public let command: String
    private let connection: SQLiteFile
    /// False when the store could only be opened read-only: reading works, changing says why not.
    private let writable: Bool

    /// Opens or creates the store at `path`, creating its folder (0700). A new store is built
    /// aside under a temporary name and linked into place whole, so an interrupted first use
    /// leaves nothing and concurrent first uses all open the one store that won. A store that
    /// cannot be written (a read-only file or file system) is opened read-only.
    public init(path: String, command: String = Tool.devsync.name) throws(ToolError) {
        self.path = path
        self.command = command
        do {
            if let slash = path.lastIndex(of: "/"), slash != path.startIndex {
                try LocalFile.makeDirectories(String(path[..<slash]), mode: 0o700)
            }
            try StoreSchema.createIfMissing(path)
            if StoreSchema.isWritable(path) {
                connection = try SQLiteFile(path)
                writable = true
                try connection.transaction(.write) { db in try StoreSchema.check(db, path: path, repairing: true) }
                try StoreSchema.migrations.apply(to: connection)
            } else {
                connection = try SQLiteFile(StoreSchema.readOnlyLocation(path))
                writable = false
                try connection.transaction(.read) { db in try StoreSchema.check(db, path: path, repairing: false) }
            }
        } catch let error as ToolError {
            throw error
        } catch {
            throw .io(path: path, reason: StoreSchema.describe(error))
        }
    }

    /// The store from async code. Every call above waits for SQLite on the calling thread;
    /// here `work` runs on the connection's serial queue instead, so that no task holds one of
    /// the few threads all tasks share while it waits (a sync with 8 changes in flight would
    /// otherwise block 8 of them, and on a 2-core machine everything else with them).
    public func perform<T: Sendable>(_ work: @escaping @Sendable (DeviceStore) throws(ToolError) -> T) async throws(ToolError) -> T {
        try await connection.perform { Result { () throws(ToolError) in try work(self) } }.get()
    }

    deinit {
        // The last connection to close folds the journal back into the store.
        connection.close()
    }

    // MARK: - Reading

    /// Every device in id order, in one read transaction, each made as SQLite steps to its row
    /// (no statement's rows are held beside the devices made of them). `first`: `onFirst` sees
    /// that many at once, before the rest is read (devsync ui shows them).
    public func devices(first: Int? = nil, onFirst: (([Device]) -> Void)? = nil) throws(ToolError) -> [Device] {
        try read { db in
            var devices: [Device] = []
            var told = onFirst == nil
            try db.each(Self.deviceQuery + " ORDER BY d.id") { row in
                devices.append(Self.device(row))
                if !told, devices.count == first {
                    told = true
                    onFirst?(devices)
                }
            }
            if !told { onFirst?(devices) }
            return devices
        }
    }

    public func deviceCount() throws(ToolError) -> Int {
        try read { db in try db.value("SELECT count(*) FROM device")?.integer ?? 0 }
    }

    public func device(_ id: String) throws(ToolError) -> Device? {
        try read { db in try db.rows(Self.deviceQuery + " WHERE d.id = ?", [.text(id)]).first.map(Self.device) }
    }

    /// Devices with a change not yet through, in the order they were recorded.
    public func pending() throws(ToolError) -> [Device] {
        try read { db in
            try db.rows(Self.changedDevicesQuery + " ORDER BY c.recordedAt, c.rowid").map(Self.device)
        }
    }

    /// When the store last pulled the server's devices (nil: never).
    public func lastPull() throws(ToolError) -> Date? {
        try read { db in StoredDate.parse(try db.value("SELECT value FROM meta WHERE key = 'lastPull'")?.string) }
    }

    // MARK: - Helpers

    static let deviceColumns = """
        SELECT d.id, d.type, d.meterPointDescription, d.installationDate AS serverDate,
               c.deviceID AS changeID, c.installationDate AS changeDate, c.revision, c.state, c.attempts,
               c.lastError, c.recordedAt, c.claimPID, c.conflict, c.conflictServerDate
        """
    static let deviceQuery = deviceColumns + " FROM device d LEFT JOIN change c ON c.deviceID = d.id"

    /// The devices with a change, in no order: `pending` lists them, `status` counts them.
    /// Stepped from the few changes to their devices (CROSS JOIN keeps that order in SQLite's
    /// plan), never through every device of a pulled list.
    static let changedDevicesQuery = deviceColumns + " FROM change c CROSS JOIN device d ON d.id = c.deviceID"

    static func device(_ row: SQLRow) -> Device {
        func text(_ name: String) -> String? { row.column(name)?.string }
        func integer(_ name: String) -> Int? { row.column(name)?.integer }
        var change: PendingChange?
        if let changeID = text("changeID") {
            let (date, damaged) = StoredDate.read(row.column("changeDate"))
            change = PendingChange(deviceID: changeID, installationDate: date,
                                   revision: integer("revision") ?? 0,
                                   state: text("state").flatMap(PendingChange.State.init(rawValue:)) ?? .pending,
                                   attempts: integer("attempts") ?? 0, lastError: text("lastError"),
                                   recordedAt: StoredDate.parse(text("recordedAt")) ?? Date(timeIntervalSince1970: 0),
                                   claimedBy: integer("claimPID").flatMap { Int32(exactly: $0) },
                                   serverChange: integer("conflict") == 1 ? .init(installationDate: StoredDate.parse(text("conflictServerDate"))) : nil,
                                   isDamaged: damaged)
        }
        return Device(id: text("id") ?? "", type: DeviceType(rawValue: text("type") ?? ""),
                      meterPointDescription: text("meterPointDescription") ?? "",
                      serverDate: StoredDate.parse(text("serverDate")), change: change)
    }

    /// A number that changes whenever another connection (another process) commits to the
    /// store; this connection's own commits leave it as it is. What `devsync ui` watches.
    public func dataVersion() throws(ToolError) -> Int {
        do { return try connection.alone { try $0.value("PRAGMA data_version")?.integer ?? 0 } } catch {
            throw .io(path: path, reason: StoreSchema.describe(error))
        }
    }

    func read<T>(_ body: (SQLiteStatements) throws -> T) throws(ToolError) -> T {
        do { return try connection.transaction(.read, body) } catch let error as ToolError { throw error } catch {
            throw .io(path: path, reason: StoreSchema.describe(error))
        }
    }

    func write<T>(_ body: (SQLiteStatements) throws -> T) throws(ToolError) -> T {
        guard writable else { throw .io(path: path, reason: "the store is read-only; nothing was changed") }
        do { return try connection.transaction(.write, body) } catch let error as ToolError { throw error } catch {
            throw .io(path: path, reason: StoreSchema.describe(error))
        }
    }
}
