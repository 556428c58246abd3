import FoundationEssentials
import SQLiteKit
import ToolboxKit

/// The store's history (`store.history`): an entry for every change to a device, written in
/// the transaction of what it records (`log`), read back newest first (`events`, as
/// `devsync log` shows them), and what another process changed since a screen read the store
/// (`changes(since:)`), so that `devsync ui` patches those devices instead of reading them all.
public struct DeviceHistory: Sendable {
    let store: DeviceStore

    /// The store as it is after history entry `seq`, for the devices the entries since name.
    public struct ChangesSince: Sendable, Equatable {
        /// The newest history entry: the next catch-up starts after it.
        public var seq: Int
        public var lastPull: Date?
        /// The devices in the store: a pull that added or removed some changes it.
        public var total: Int
        /// The devices the entries name, as the store has them now; nil when there were more
        /// than asked for, or one is gone: the screen reads the store whole then.
        public var devices: [Device]?
        /// Every device with a change not yet through, in the order sync sends them (a
        /// sync's claims change these without an entry).
        public var pending: [Device]

        public init(seq: Int, lastPull: Date?, total: Int, devices: [Device]?, pending: [Device]) {
            self.seq = seq
            self.lastPull = lastPull
            self.total = total
            self.devices = devices
            self.pending = pending
        }
    }

    /// The newest history entry (0: none yet). Read before a snapshot's devices, so that
    /// what they show is at least as new as it.
    public func newestSeq() throws(ToolError) -> Int {
        try store.read { db in try db.value("SELECT COALESCE(MAX(seq), 0) FROM history")?.integer ?? 0 }
    }

    /// Everything after history entry `seq`, in one read transaction. Up to `limit` entries,
    /// their devices are read one by one; more, and none are (`devices` is nil).
    public func changes(since seq: Int, limit: Int = 500) throws(ToolError) -> ChangesSince {
        try store.read { db in
            let entries = try db.rows("SELECT seq, deviceID FROM history WHERE seq > ? ORDER BY seq LIMIT ?",
                                      [.integer(seq), .integer(limit + 1)])
            let newest = try db.value("SELECT COALESCE(MAX(seq), 0) FROM history")?.integer ?? seq
            let lastPull = StoredDate.parse(try db.value("SELECT value FROM meta WHERE key = 'lastPull'")?.string)
            let total = try db.value("SELECT count(*) FROM device")?.integer ?? 0
            let pending = try db.rows(DeviceStore.changedDevicesQuery + " ORDER BY c.recordedAt, c.rowid").map(DeviceStore.device)
            var devices: [Device]? = nil
            if entries.count <= limit {
                // Named by bytes, as SQLite compares ids; each device once, in the order named.
                var named: [[UInt8]] = []
                var seen = Set<[UInt8]>()
                for entry in entries {
                    let id = Array((entry.column("deviceID")?.string ?? "").utf8)
                    if seen.insert(id).inserted { named.append(id) }
                }
                var found: [Device] = []
                for id in named {
                    let text = String(decoding: id, as: UTF8.self)
                    guard let row = try db.rows(DeviceStore.deviceQuery + " WHERE d.id = ?", [.text(text)]).first else { break }
                    found.append(DeviceStore.device(row))
                }
                if found.count == named.count { devices = found }
            }
            return ChangesSince(seq: newest, lastPull: lastPull, total: total, devices: devices, pending: pending)
        }
    }

    /// The history, newest first: of one device or all, since a time or all of it, the newest
    /// `limit` entries or all.
    public func events(device: String? = nil, since: Date? = nil, limit: Int? = nil) throws(ToolError) -> [HistoryEvent] {
        var conditions: [String] = []
        var binds: [SQLValue] = []
        if let device { conditions.append("deviceID = ?"); binds.append(.text(device)) }
        if let since { conditions.append("at >= ?"); binds.append(.text(StoredDate.format(since))) }
        var filter = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
        filter += " ORDER BY seq DESC"
        if let limit { filter += " LIMIT \(max(limit, 0))" }
        return try store.read { db in
            try db.rows("SELECT seq, at, deviceID, event, oldValue, newValue, detail FROM history" + filter, binds)
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

    /// Appends one entry to the history, in the transaction of what it records.
    static func log(_ db: SQLiteStatements, at: Date, device: String, _ event: HistoryEvent.Kind,
                    old: String? = nil, new: String? = nil, detail: String = "") throws {
        try db.execute("INSERT INTO history (at, deviceID, event, oldValue, newValue, detail) VALUES (?, ?, ?, ?, ?, ?)",
                       [.text(StoredDate.format(at)), .text(device), .text(event.rawValue), .optional(old), .optional(new), .text(detail)])
    }
}

extension DeviceStore {
    /// What happened to the devices, entry by entry.
    public var history: DeviceHistory { DeviceHistory(store: self) }
}
