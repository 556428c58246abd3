import ToolboxKit

/// The server a store belongs to (issue 47). Its devices, dates and pending changes are that
/// server's: a pull from another would clear dates with no sign of why, and a sync would send
/// one server's changes to another. So the first pull or sync records the server (without
/// credentials), `status`, `log` and the screens name it, and any other server is refused in
/// one line naming both, unless the user says to switch, which keeps every pending change.
/// (`store.binding`)
public struct ServerBinding: Sendable {
    let store: DeviceStore

    /// The server the store was pulled from or synced to, as messages show a URL; nil before
    /// the first pull or sync.
    public func server() throws(ToolError) -> String? {
        try store.read { db in try db.value("SELECT value FROM meta WHERE key = 'server'")?.string }
    }

    /// Binds the store to `server` (its URL without credentials, `ServerURL.description`), or
    /// checks that it is bound to it. Another server is refused unless `switching`, which binds
    /// the store to it and returns what happens to the pending changes, to be said once.
    @discardableResult
    public func bind(to server: String, switching: Bool) throws(ToolError) -> String? {
        let bound = try self.server()
        if let bound, Self.sameServer(bound, server) { return nil }
        let path = store.path
        if let bound, !switching {
            throw .usage("the store \(path) belongs to \(bound), not \(server); pass --switch-server to move it "
                         + "(its pending changes are kept and go to the new server), or use another --store")
        }
        let pending = try store.pending().count
        try store.write { db in try db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('server', ?)", [.text(server)]) }
        guard let bound else { return nil }
        return "the store moves from \(bound) to \(server); "
            + (pending == 0 ? "no change is pending" : "\(pending) pending change\(pending == 1 ? "" : "s") will be sent to \(server)")
            + "; the next pull takes that server's devices"
    }

    /// Whether two server URLs name one server: the same after RFC 3986's normalisation
    /// (scheme and host in any ASCII case, a default port written or not), not only as written.
    static func sameServer(_ one: String, _ other: String) -> Bool {
        if one == other { return true }
        guard let first = URLReference(one), let second = URLReference(other) else { return false }
        return first.absolute == second.absolute
    }
}

extension DeviceStore {
    /// The server the store belongs to.
    public var binding: ServerBinding { ServerBinding(store: self) }
}
