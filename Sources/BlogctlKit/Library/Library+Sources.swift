import FoundationEssentials
import SQLiteKit
import ToolboxKit

/// The sources: a row each, made when a source is first met (with what the old layout kept of
/// it), changed, carried along a move, and forgotten.
extension Library {
    /// What the library knows of `server`; nil when it has never been used.
    public func source(_ server: ServerURL) throws(ToolError) -> SourceRecord? {
        func known() throws(ToolError) -> SourceRecord? {
            try read { db in
                try db.rows("SELECT \(SourceRecord.columns) FROM sources s WHERE s.key = ?", [.text(server.folderName)]).first.map { SourceRecord($0) }
            }
        }
        if let source = try known() { return source }
        try adopt([server])
        return try known()
    }

    /// The row of `server`, made when missing, with what the old layout kept of it taken in.
    /// The rows of `servers`' sources, by key (`ServerURL.folderName`); one query.
    public func sources(of servers: [ServerURL]) throws(ToolError) -> [String: SourceRecord] {
        try adopt(servers)
        return try read { db in
            var found: [String: SourceRecord] = [:]
            try db.each("SELECT s.key, \(SourceRecord.columns) FROM sources s WHERE s.key IN (SELECT value FROM json_each(?))",
                        [.text(Self.jsonArray(Set(servers.map(\.folderName))))]) { row in
                guard let key = row.values[0].string else { return }
                found[key] = SourceRecord(row, from: 1)
            }
            return found
        }
    }

    func sourceID(_ server: ServerURL, _ db: SQLiteStatements) throws -> Int {
        if let id = try db.value("SELECT id FROM sources WHERE key = ?", [.text(server.folderName)])?.integer { return id }
        try db.execute("INSERT INTO sources (key, url) VALUES (?, ?)",
                       [.text(server.folderName), .text(ServerURL.redactedIfCredentials(server.description))])
        let id = try db.value("SELECT last_insert_rowid()")?.integer ?? 0
        try oldLayout.takeIn(server, source: id, db)
        return id
    }

    /// Makes the rows of those of `servers` the library has not met but the old layout kept,
    /// so that a read finds what blogctl kept before the library. One read when all are known.
    func adopt(_ servers: [ServerURL]) throws(ToolError) {
        if servers.count == 1, let key = servers.first?.folderName {
            let met = try read { db in
                try db.value("SELECT EXISTS (SELECT 1 FROM sources WHERE key = ?1) OR EXISTS (SELECT 1 FROM old_layout_taken WHERE key = ?1)",
                             [.text(key)])?.integer == 1
            }
            guard !met, oldLayout.has(servers[0]) else { return }
            return try write { db in _ = try sourceID(servers[0], db) }
        }
        let missing = try read { db in
            let known = Set(try db.rows("""
                SELECT key FROM sources WHERE key IN (SELECT value FROM json_each(?1))
                UNION SELECT key FROM old_layout_taken WHERE key IN (SELECT value FROM json_each(?1))
                """, [.text(Self.jsonArray(servers.map(\.folderName)))]).compactMap { $0.values[0].string })
            return servers.filter { !known.contains($0.folderName) && oldLayout.has($0) }
        }
        guard !missing.isEmpty else { return }
        try write { db in for server in missing { _ = try sourceID(server, db) } }
    }

    /// Changes `server`'s row (made when missing) with `change`.
    public func update(_ server: ServerURL, _ change: (inout SourceRecord) -> Void) throws(ToolError) {
        try update([server]) { _, source in change(&source) }
    }

    /// Changes each of `servers`' rows with `change` (given the server's place), in one
    /// transaction: a refresh records every feed's outcome at once, not a commit per feed.
    public func update(_ servers: [ServerURL], _ change: (Int, inout SourceRecord) -> Void) throws(ToolError) {
        try write { db in
            for (place, server) in servers.enumerated() {
                let id = try sourceID(server, db)
                var source = try db.rows("SELECT \(SourceRecord.columns) FROM sources s WHERE s.id = ?", [.integer(id)]).first
                    .map { SourceRecord($0) } ?? SourceRecord()
                change(place, &source)
                try source.store(id: id, db)
            }
        }
    }

    /// A feed that moved (301, 308): what the library has of `old` (its state, its entries,
    /// its marks) is had by `new` too, merged into what `new` already has.
    public func carry(from old: ServerURL, to new: ServerURL) throws(ToolError) {
        try write { db in
            guard let from = try db.value("SELECT id FROM sources WHERE key = ?", [.text(old.folderName)])?.integer else { return }
            let to = try sourceID(new, db)
            guard from != to else { return }
            try db.execute("""
                UPDATE sources SET (kind, title, etag, last_modified, listed_at, site_url) =
                    (SELECT kind, title, etag, last_modified, listed_at, site_url FROM sources WHERE id = ?1)
                WHERE id = ?2
                """, [.integer(from), .integer(to)])
            try db.execute("UPDATE sources SET feed_url = ? WHERE id = ?", [.text(new.resource), .integer(to)])
            try db.execute("""
                INSERT OR IGNORE INTO entries (source, id, post_id, title, published, summary, author, author_image, author_title,
                    link, base, position, present, first_seen, flags, enclosures, picture)
                SELECT ?2, id, post_id, title, published, summary, author, author_image, author_title, link, base, position, present,
                    first_seen, flags, enclosures, picture FROM entries WHERE source = ?1
                """, [.integer(from), .integer(to)])
            try db.execute("INSERT OR IGNORE INTO marks (source, id) SELECT ?2, id FROM marks WHERE source = ?1", [.integer(from), .integer(to)])
        }
    }

    /// Forgets `server`: its row, its entries and its marks (`blogctl feeds remove`).
    public func remove(_ server: ServerURL) throws(ToolError) {
        try write { db in
            guard let id = try db.value("SELECT id FROM sources WHERE key = ?", [.text(server.folderName)])?.integer else { return }
            for table in ["entries", "marks"] { try db.execute("DELETE FROM \(table) WHERE source = ?", [.integer(id)]) }
            try db.execute("DELETE FROM sources WHERE id = ?", [.integer(id)])
        }
    }
}
