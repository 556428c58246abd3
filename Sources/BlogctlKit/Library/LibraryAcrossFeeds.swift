import FoundationEssentials
import SQLiteKit
import ToolboxKit

/// The library's questions across feeds, each one query over every source asked about (the
/// reason the library is one file): every entry with its read mark, how much of each id tells
/// it apart, which feeds hold an id, each feed's counts. `Library` keeps the sources, their
/// listings and marks; this reads across them.
public struct LibraryAcrossFeeds: Sendable {
    let library: Library

    /// The entries of every source in `servers`, each with its source's place in `servers`
    /// and whether it was read: one query, in the sources' order, each in its listing's order.
    public func entries(of servers: [ServerURL]) throws(ToolError) -> [(source: Int, post: PostMetadata, read: Bool, flags: String)] {
        guard !servers.isEmpty else { return [] }
        var place: [String: Int] = [:]
        for (index, server) in servers.enumerated() {
            let key = server.folderName
            if place[key] == nil { place[key] = index }
        }
        try library.adopt(servers)
        return try library.read { db in
            var found: [(source: Int, post: PostMetadata, read: Bool, flags: String)] = []
            try db.each("""
                SELECT s.key, m.id IS NOT NULL, e.flags, \(EntryRow.columns) FROM sources s JOIN entries e ON e.source = s.id
                LEFT JOIN marks m ON m.source = e.source AND m.id = e.id
                WHERE s.key IN (SELECT value FROM json_each(?)) ORDER BY e.present DESC, e.position
                """, [.text(Library.jsonArray(place.keys))]) { row in
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
        try library.adopt(servers)
        return try library.read { db in
            var previous: [Unicode.Scalar] = []
            var length = IDPrefix.minimum
            try db.each("""
                SELECT DISTINCT e.id FROM entries e JOIN sources s ON s.id = e.source
                WHERE s.key IN (SELECT value FROM json_each(?)) ORDER BY e.id
                """, [.text(Library.jsonArray(Set(servers.map(\.folderName))))]) { row in
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
            try library.read { db in
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
        try library.adopt(servers)
        return try find()
    }

    /// Per source of `servers`: its entries, the unread among them, and its own row; one query.
    public func counts(of servers: [ServerURL]) throws(ToolError) -> [String: (entries: Int, unread: Int, source: SourceRecord)] {
        let keys = Set(servers.map(\.folderName))
        try library.adopt(servers)
        return try library.read { db in
            var counts: [String: (entries: Int, unread: Int, source: SourceRecord)] = [:]
            try db.each("""
                SELECT s.key, count(e.id), count(e.id) - count(m.id), \(SourceRecord.columns) FROM sources s
                LEFT JOIN entries e ON e.source = s.id LEFT JOIN marks m ON m.source = e.source AND m.id = e.id
                WHERE s.key IN (SELECT value FROM json_each(?)) GROUP BY s.id
                """, [.text(Library.jsonArray(keys))]) { row in
                guard let key = row.values[0].string else { return }
                counts[key] = (row.values[1].integer ?? 0, row.values[2].integer ?? 0, SourceRecord(row, from: 3))
            }
            return counts
        }
    }
}

extension Library {
    public var acrossFeeds: LibraryAcrossFeeds { LibraryAcrossFeeds(library: self) }
}
