import FoundationEssentials
import SQLiteKit
import ToolboxKit

/// A source's entries: each listing written in one transaction, entries that left the source
/// kept (newsboat's way: a feed carries only its newest), up to the user's `max-items`.
extension Library {
    /// Keeps `posts` as `server`'s listing, in their order, in one transaction (`writeListing`).
    public func saveListing(_ posts: [PostMetadata], server: ServerURL, maxItems: Int? = nil, now: Date = Date()) throws(ToolError) {
        _ = try writeListing(server, maxItems: maxItems, now: now) { listing in
            for post in posts { _ = try listing.add(post) }
            return true
        }
    }

    /// A new listing of `server`, its posts handed to `fill`'s writer one at a time (a big
    /// feed's straight from its parse, none held), all in one transaction. Of a feed, entries
    /// the listing no longer has stay, marked as gone from it, the oldest beyond `maxItems` let
    /// go; of the API, whose list is the whole blog, they go. `fill` returns false when it
    /// found no listing after all (a web page): nothing is changed, and false is returned.
    /// `feed`: the source is known to be a feed from now on (its first listing is one).
    public func writeListing(_ server: ServerURL, maxItems: Int?, now: Date = Date(), feed: Bool = false,
                             _ fill: (ListingWriter) throws -> Bool) throws(ToolError) -> Bool {
        var noListing = false
        do {
            return try write { db in
                let source = try sourceID(server, db)
                if feed { try db.execute("UPDATE sources SET kind = 'feed' WHERE id = ?", [.integer(source)]) }
                let keepingDeparted = try db.value("SELECT kind = 'feed' FROM sources WHERE id = ?", [.integer(source)])?.integer == 1
                try db.execute(keepingDeparted ? "UPDATE entries SET present = 0 WHERE source = ?" : "DELETE FROM entries WHERE source = ?",
                               [.integer(source)])
                guard try fill(ListingWriter(db, source: source, now: now, path: path)) else {
                    noListing = true
                    throw NoListing()
                }
                if keepingDeparted, let maxItems, maxItems > 0 {
                    // newsboat's max-items: what the feed lists now first, then the newest of what left it.
                    try db.execute("""
                        DELETE FROM entries WHERE source = ?1 AND id IN (
                            SELECT id FROM entries WHERE source = ?1
                            ORDER BY present DESC, coalesce(published, first_seen) DESC, position LIMIT -1 OFFSET ?2)
                        """, [.integer(source), .integer(maxItems)])
                }
                try db.execute("UPDATE sources SET listed_at = ?, generation = generation + 1 WHERE id = ?",
                               [.real(now.timeIntervalSince1970), .integer(source)])
                return true
            }
        } catch {
            if noListing { return false }
            throw error
        }
    }

    /// Thrown inside `writeListing`'s transaction to undo it: `fill` found no listing.
    struct NoListing: Error {}

    /// Every entry the library keeps of `server`, the last listing's first, in its order, then
    /// those that left it; nil when no listing was ever saved.
    public func listing(_ server: ServerURL) throws(ToolError) -> [PostMetadata]? {
        try adopt([server])
        return try read { db in
            guard let id = try Self.listedSource(server, db) else { return nil }
            var posts: [PostMetadata] = []
            try db.each(Self.listingInOrder, [.integer(id)]) { posts.append(EntryRow.post($0)) }
            return posts
        }
    }

    /// A source's entries as `listing` gives them, read along `entries_in_order`, not sorted.
    static let listingInOrder = "SELECT \(EntryRow.columns) FROM entries e WHERE e.source = ? ORDER BY e.present DESC, e.position"

    /// The ids alone of what `listing` gives (the shell's Tab: no metadata decoded).
    public func ids(of server: ServerURL) throws(ToolError) -> [String]? {
        try adopt([server])
        return try read { db in
            guard let id = try Self.listedSource(server, db) else { return nil }
            var ids: [String] = []
            try db.each("SELECT id FROM entries WHERE source = ? ORDER BY present DESC, position", [.integer(id)]) { ids.append($0.values[0].string ?? "") }
            return ids
        }
    }

    /// The row of `server` when a listing of it was ever saved.
    static func listedSource(_ server: ServerURL, _ db: SQLiteStatements) throws -> Int? {
        try db.value("SELECT id FROM sources WHERE key = ? AND listed_at IS NOT NULL", [.text(server.folderName)])?.integer
    }

    /// The entries of every source in `servers`, each with its source's place in `servers`
    /// and whether it was read: one query, in the sources' order, each in its listing's order.
    public func entries(of servers: [ServerURL]) throws(ToolError) -> [(source: Int, post: PostMetadata, read: Bool, flags: String)] {
        guard !servers.isEmpty else { return [] }
        var place: [String: Int] = [:]
        for (index, server) in servers.enumerated() {
            let key = server.folderName
            if place[key] == nil { place[key] = index }
        }
        try adopt(servers)
        return try read { db in
            var found: [(source: Int, post: PostMetadata, read: Bool, flags: String)] = []
            try db.each("""
                SELECT s.key, m.id IS NOT NULL, e.flags, \(EntryRow.columns) FROM sources s JOIN entries e ON e.source = s.id
                LEFT JOIN marks m ON m.source = e.source AND m.id = e.id
                WHERE s.key IN (SELECT value FROM json_each(?)) ORDER BY e.present DESC, e.position
                """, [.text(Self.jsonArray(place.keys))]) { row in
                guard let index = row.values[0].string.flatMap({ place[$0] }) else { return }
                found.append((index, EntryRow.post(row, from: 3), row.values[1].integer == 1, row.values[2].string ?? ""))
            }
            // Stable: each source's entries keep their order.
            return found.enumerated().sorted { ($0.element.source, $0.offset) < ($1.element.source, $1.offset) }.map(\.element)
        }
    }

    /// How many scalars of each id a table of `servers`' entries shows (`IDPrefix.length`),
    /// so that what it shows, typed back, names one entry among theirs: every id they keep,
    /// read in order (bytes, as scalars sort; one source's in its key's order, no sort), none
    /// held. `servers` are taken in from the old layout first, as a listing of them is.
    public func idPrefixLength(of servers: [ServerURL]) throws(ToolError) -> Int {
        try adopt(servers)
        return try read { db in
            var previous: [Unicode.Scalar] = []
            var length = IDPrefix.minimum
            try db.each("""
                SELECT DISTINCT e.id FROM entries e JOIN sources s ON s.id = e.source
                WHERE s.key IN (SELECT value FROM json_each(?)) ORDER BY e.id
                """, [.text(Self.jsonArray(Set(servers.map(\.folderName))))]) { row in
                let id = Array((row.values[0].string ?? "").unicodeScalars)
                length = max(length, zip(previous, id).prefix { $0 == $1 }.count + 1)
                previous = id
            }
            return length
        }
    }

    /// Which of `servers` hold an entry whose id is `id` (`exact`), else one that starts with
    /// it: one query over every source's entries.
    public func holders(of id: String, among servers: [ServerURL]) throws(ToolError) -> (exact: [Int], starting: [Int]) {
        var place: [String: Int] = [:]
        for (index, server) in servers.enumerated() {
            let key = server.folderName
            if place[key] == nil { place[key] = index }
        }
        func find() throws(ToolError) -> (exact: [Int], starting: [Int]) {
            try read { db in
                var exact: Set<Int> = [], starting: Set<Int> = []
                // The ids starting with `id` lie between it and it followed by the last code point
                // (in byte order, as the index keeps them): one range of the index is read.
                // substr and length count characters of valid UTF-8, so a prefix is compared whole.
                // Sources not among `servers` are left out here, not in SQL: the answer is a row
                // per source at most, and naming every subscription to SQLite cost more than that.
                try db.each("""
                    SELECT DISTINCT s.key, e.id = ?1 FROM entries e JOIN sources s ON s.id = e.source
                    WHERE e.id >= ?1 AND e.id < ?1 || char(1114111) AND substr(e.id, 1, length(?1)) = ?1
                    """, [.text(id)]) { row in
                    guard let index = row.values[0].string.flatMap({ place[$0] }) else { return }
                    if row.values[1].integer == 1 { exact.insert(index) } else { starting.insert(index) }
                }
                return (exact.sorted(), starting.subtracting(exact).sorted())
            }
        }
        // The old layout is looked at only when the library does not have the id.
        let found = try find()
        if !found.exact.isEmpty || !found.starting.isEmpty { return found }
        try adopt(servers)
        return try find()
    }

    /// Per source of `servers`: its entries, the unread among them, and its own row; one query.
    public func counts(of servers: [ServerURL]) throws(ToolError) -> [String: (entries: Int, unread: Int, source: SourceRecord)] {
        let keys = Set(servers.map(\.folderName))
        try adopt(servers)
        return try read { db in
            var counts: [String: (entries: Int, unread: Int, source: SourceRecord)] = [:]
            try db.each("""
                SELECT s.key, count(e.id), count(e.id) - count(m.id), \(SourceRecord.columns) FROM sources s
                LEFT JOIN entries e ON e.source = s.id LEFT JOIN marks m ON m.source = e.source AND m.id = e.id
                WHERE s.key IN (SELECT value FROM json_each(?)) GROUP BY s.id
                """, [.text(Self.jsonArray(keys))]) { row in
                guard let key = row.values[0].string else { return }
                counts[key] = (row.values[1].integer ?? 0, row.values[2].integer ?? 0, SourceRecord(row, from: 3))
            }
            return counts
        }
    }

    /// Strings as one JSON array, for `json_each`: any number of keys bound as one value.
    static func jsonArray(_ strings: some Sequence<String>) -> String {
        String(decoding: JSONCoding.encode(Array(strings)), as: UTF8.self)
    }
}
