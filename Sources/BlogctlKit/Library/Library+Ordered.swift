import FoundationEssentials
import SQLiteKit
import ToolboxKit

/// A listing read from the library in the order `list` shows it, by SQLite's sorter (which
/// spills to disk), one row at a time: no list of every entry is held, whatever a feed's size.
/// The order is `PostOrdering`'s own, exactly: its comparisons are defined on the connection
/// (`blogctl_alpha`, `blogctl_month`; ids by their bytes), and PostOrderingTests compares the two.
extension Library {
    /// An entry as `eachEntry` gives it: the post (its `feed` the name it was listed under),
    /// whether it was read, and the name of its group ("" when not grouped).
    public struct ListedEntry {
        public var post: PostMetadata
        public var read: Bool
        public var group: String
    }

    /// The entries of `sources` (each a server and the name its entries are listed under,
    /// nil for none), in `ordering`'s order: groups in theirs, entries inside in theirs, ties
    /// in the sources' order, then each listing's. `body` returns false to stop.
    public func eachEntry(of sources: [(server: ServerURL, name: String?)], ordering: PostOrdering,
                          _ body: (ListedEntry) throws(ToolError) -> Bool) throws(ToolError) {
        guard !sources.isEmpty else { return }
        var place: [String: (index: Int, name: String?)] = [:]
        for (index, source) in sources.enumerated() where place[source.server.folderName] == nil {
            place[source.server.folderName] = (index, source.name)
        }
        try adopt(sources.map(\.server))
        var failure: ToolError?
        var stopped = false
        do {
            try read { db in
            try Self.defineOrder(db, ordering: ordering, place: place)
            try db.each("""
                SELECT s.key, m.id IS NOT NULL, \(EntryRow.columns) FROM sources s JOIN entries e ON e.source = s.id
                LEFT JOIN marks m ON m.source = e.source AND m.id = e.id
                WHERE s.key IN (SELECT value FROM json_each(?)) AND s.listed_at IS NOT NULL
                ORDER BY \(Self.orderTerms(ordering, sources: place.count))
                """, [.text(Self.jsonArray(place.keys))]) { row in
                guard failure == nil, let key = row.values[0].string, let source = place[key] else { return }
                var post = EntryRow.post(row, from: 2)
                post.feed = source.name
                let group: String
                switch ordering.grouping {
                case .none: group = ""
                case .author: group = post.author.name
                case .feed: group = source.name ?? ""
                case .month: group = PostOrdering.monthName(post.publishDate.map(ordering.monthKey) ?? PostOrdering.unknownMonth)
                }
                do throws(ToolError) {
                    stopped = try !body(ListedEntry(post: post, read: row.values[1].integer == 1, group: group))
                } catch {
                    failure = error
                    stopped = true
                }
                if stopped { throw Stop() }
            }
            }
        } catch {
            if !stopped { throw error }
        }
        if let failure { throw failure }
    }

    /// Thrown out of a read to end it early.
    private struct Stop: Error {}

    /// The ORDER BY of `ordering`: the groups' order (never turned around), the order inside
    /// a group (turned around, every term, by `--reverse`), then ties as the sources and their
    /// listings have them.
    static func orderTerms(_ ordering: PostOrdering, sources: Int) -> String {
        var groups: [String] = []
        switch ordering.grouping {
        case .none: break
        case .author: groups = ["e.author COLLATE blogctl_alpha"]
        case .feed: groups = ["blogctl_feed(s.key) COLLATE blogctl_alpha"]
        case .month: groups = ["blogctl_month(e.published) DESC"]
        }
        var inside: [(String, ascending: Bool)]
        switch ordering.sorting {
        case .date: inside = [("e.published IS NULL", true), ("e.published", false)]
        case .title: inside = [("e.title COLLATE blogctl_alpha", true)]
        case .author: inside = [("e.author COLLATE blogctl_alpha", true)]
        }
        inside.append(("e.id", true))
        let turned = inside.map { term, ascending in term + ((ascending != ordering.reversed) ? " ASC" : " DESC") }
        // One source has no place to compare (a call per row saved).
        return (groups + turned + (sources > 1 ? ["blogctl_place(s.key)"] : []) + ["e.present DESC", "e.position"]).joined(separator: ", ")
    }

    /// The comparisons and keys `orderTerms` names, defined on this connection for `ordering`.
    static func defineOrder(_ db: SQLiteStatements, ordering: PostOrdering, place: [String: (index: Int, name: String?)]) throws {
        try db.define(collation: "blogctl_alpha") { left, right in
            Self.asciiOrder(left, right, folding: true) ?? Self.compared(left, right) { a, b in PostOrdering.alphabeticalOrder(a, b) }
        }
        try db.define(function: "blogctl_month") { value in
            guard case .real(let seconds) = value else { return .integer(PostOrdering.unknownMonth) }
            return .integer(ordering.monthKey(Date(timeIntervalSince1970: seconds)))
        }
        try db.define(function: "blogctl_place") { value in .integer(value.string.flatMap { place[$0]?.index } ?? Int.max) }
        try db.define(function: "blogctl_feed") { value in .text(value.string.flatMap { place[$0]?.name } ?? "") }
    }

    /// -1, 0 or 1 as `order` places two UTF-8 texts (true: the left first; nil: a tie).
    static func compared(_ left: UnsafeRawBufferPointer, _ right: UnsafeRawBufferPointer,
                         _ order: (String, String) -> Bool?) -> Int32 {
        let a = String(decoding: left, as: UTF8.self), b = String(decoding: right, as: UTF8.self)
        switch order(a, b) {
        case true?: return -1
        case false?: return 1
        case nil: return 0
        }
    }

    /// How two ASCII texts compare, by their bytes (ASCII-lowercased first when `folding`,
    /// then as they are): what Swift's comparisons give them, without making a String. nil
    /// when either is not all ASCII.
    static func asciiOrder(_ left: UnsafeRawBufferPointer, _ right: UnsafeRawBufferPointer, folding: Bool) -> Int32? {
        guard !left.contains(where: { $0 >= 0x80 }), !right.contains(where: { $0 >= 0x80 }) else { return nil }
        func fold(_ byte: UInt8) -> UInt8 { (0x41...0x5A).contains(byte) ? byte | 0x20 : byte }
        if folding {
            for (a, b) in zip(left, right) where fold(a) != fold(b) { return fold(a) < fold(b) ? -1 : 1 }
            if left.count != right.count { return left.count < right.count ? -1 : 1 }
        }
        for (a, b) in zip(left, right) where a != b { return a < b ? -1 : 1 }
        return left.count == right.count ? 0 : left.count < right.count ? -1 : 1
    }
}
