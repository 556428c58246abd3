#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import SQLiteKit
import ToolboxKit

/// The store's queue of changes on their way to the server: the changes a sync process
/// claims, and what became of each one it sent (`store.queue`). A change leaves the queue
/// only in the transaction that records the server's 2xx for it.
public struct SyncQueue: Sendable {
    let store: DeviceStore

    /// A change taken by one sync process, with the revision it is sending.
    public struct Claim: Sendable, Equatable {
        public let deviceID: String
        public let installationDate: Date?
        public let revision: Int
    }

    /// Takes every pending change that no live process is sending, for `token`. A claim left
    /// by a process that died (kill -9) is taken over. Returns the claims and how many
    /// pending changes another live process holds.
    /// A change whose stored date cannot be read is never sent (it would go out as "not
    /// installed"): it is left pending and returned in `damaged`, for the user to fix or discard.
    /// `holdingConflicts` leaves the changes in conflict with the server pending, untaken.
    public func claim(token: String, pid: Int32 = getpid(), holdingConflicts: Bool = false) throws(ToolError) -> (claims: [Claim], heldElsewhere: Int, damaged: [String]) {
        try store.write { db in
            let rows = try db.rows("""
                SELECT deviceID, installationDate, revision, claimToken, claimPID FROM change
                WHERE state = 'pending' AND NOT (? AND conflict = 1)
                ORDER BY recordedAt, rowid
                """, [.integer(holdingConflicts ? 1 : 0)])
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
        try store.read { db in
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
    /// `sentTo`: the server it went to. The log names that server; and if the store was moved
    /// to another meanwhile (`sync --switch-server` beside this sync), the change stays
    /// pending for the store's server, which has not had it.
    public func markSynced(_ claim: Claim, sentTo: String? = nil, at now: Date = Date()) throws(ToolError) {
        try store.write { db in
            let id = SQLValue.text(claim.deviceID)
            let server = try db.value("SELECT installationDate FROM device WHERE id = ?", [id])?.string
            let attempts = try db.value("SELECT attempts FROM change WHERE deviceID = ?", [id])?.integer ?? 0
            let bound = try db.value("SELECT value FROM meta WHERE key = 'server'")?.string
            if let sentTo, let bound, !ServerBinding.sameServer(sentTo, bound) {
                try DeviceHistory.log(db, at: now, device: claim.deviceID, .synced, old: server, new: claim.installationDate.map(StoredDate.format),
                             detail: "attempt \(attempts + 1) to \(sentTo); the store moved to \(bound) meanwhile, so it stays pending for it")
                try db.execute("UPDATE change SET claimToken = NULL, claimPID = NULL WHERE deviceID = ?", [id])
                return
            }
            let to = (sentTo ?? bound).map { " to " + $0 } ?? ""
            try DeviceHistory.log(db, at: now, device: claim.deviceID, .synced, old: server, new: claim.installationDate.map(StoredDate.format),
                         detail: "attempt \(attempts + 1)" + to)
            try db.execute("UPDATE device SET installationDate = ? WHERE id = ?",
                           [.optional(claim.installationDate.map(StoredDate.format)), id])
            try db.execute("DELETE FROM change WHERE deviceID = ? AND revision = ?", [id, .integer(claim.revision)])
            try db.execute("UPDATE change SET claimToken = NULL, claimPID = NULL WHERE deviceID = ?", [id])
            try db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('lastSync', ?)", [.text(StoredDate.format(now))])
        }
    }

    /// The server refused `claim` (4xx): keep it, marked rejected with the server's message.
    public func markRejected(_ claim: Claim, message: String) throws(ToolError) {
        try store.write { db in
            let id = SQLValue.text(claim.deviceID)
            try db.execute("""
                UPDATE change SET state = 'rejected', attempts = attempts + 1, lastError = ?, claimToken = NULL, claimPID = NULL
                WHERE deviceID = ? AND revision = ?
                """, [.text(message), id, .integer(claim.revision)])
            try db.execute("UPDATE change SET claimToken = NULL, claimPID = NULL WHERE deviceID = ?", [id])
            let attempts = try db.value("SELECT attempts FROM change WHERE deviceID = ?", [id])?.integer ?? 0
            try DeviceHistory.log(db, at: Date(), device: claim.deviceID, .rejected, new: claim.installationDate.map(StoredDate.format),
                         detail: "attempt \(attempts): \(message)")
        }
    }

    /// A try failed for a transient reason: count it and keep the message; the claim stays.
    public func recordFailedAttempt(_ claim: Claim, message: String) throws(ToolError) {
        try store.write { db in
            try db.execute("UPDATE change SET attempts = attempts + 1, lastError = ? WHERE deviceID = ?",
                           [.text(message), .text(claim.deviceID)])
            let attempts = try db.value("SELECT attempts FROM change WHERE deviceID = ?", [.text(claim.deviceID)])?.integer ?? 0
            try DeviceHistory.log(db, at: Date(), device: claim.deviceID, .failed, new: claim.installationDate.map(StoredDate.format),
                         detail: "attempt \(attempts): \(message)")
        }
    }

    /// Gives back every claim `token` still holds: those changes stay pending for a later sync.
    public func release(token: String) throws(ToolError) {
        try store.write { db in
            try db.execute("UPDATE change SET claimToken = NULL, claimPID = NULL WHERE claimToken = ?", [.text(token)])
        }
    }
}

extension DeviceStore {
    /// The changes on their way to the server.
    public var queue: SyncQueue { SyncQueue(store: self) }
}
