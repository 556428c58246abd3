import FoundationEssentials
import SQLiteKit
import ToolboxKit

/// What another process changed in the store since a screen read it, named by the history
/// (every change to a device writes an entry there, in the same transaction), so that
/// `devsync ui` patches those devices instead of reading 100,000 again.
extension DeviceStore {
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
    public func historySeq() throws(ToolError) -> Int {
        try read { db in try db.value("SELECT COALESCE(MAX(seq), 0) FROM history")?.integer ?? 0 }
    }

    /// Everything after history entry `seq`, in one read transaction. Up to `limit` entries,
    /// their devices are read one by one; more, and none are (`devices` is nil).
    public func changes(since seq: Int, limit: Int = 500) throws(ToolError) -> ChangesSince {
        try read { db in
            let entries = try db.rows("SELECT seq, deviceID FROM history WHERE seq > ? ORDER BY seq LIMIT ?",
                                      [.integer(seq), .integer(limit + 1)])
            let newest = try db.value("SELECT COALESCE(MAX(seq), 0) FROM history")?.integer ?? seq
            let lastPull = StoredDate.parse(try db.value("SELECT value FROM meta WHERE key = 'lastPull'")?.string)
            let total = try db.value("SELECT count(*) FROM device")?.integer ?? 0
            let pending = try db.rows(Self.changedDevicesQuery + " ORDER BY c.recordedAt, c.rowid").map(Self.device)
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
                    guard let row = try db.rows(Self.deviceQuery + " WHERE d.id = ?", [.text(text)]).first else { break }
                    found.append(Self.device(row))
                }
                if found.count == named.count { devices = found }
            }
            return ChangesSince(seq: newest, lastPull: lastPull, total: total, devices: devices, pending: pending)
        }
    }
}
