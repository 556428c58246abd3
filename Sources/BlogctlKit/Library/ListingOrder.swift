import FoundationEssentials
import SQLiteKit

/// `PostOrdering` in SQL, so that SQLite's sorter orders a listing exactly as the screens
/// order one held in memory: the terms of an ORDER BY, and the collation (`blogctl_alpha`)
/// and functions (`blogctl_month`, `blogctl_place`, `blogctl_feed`, `blogctl_tag`) they name, defined on the
/// connection. Ids compare by their bytes, as SQLite compares text.
enum ListingOrder {
    /// The ORDER BY of `ordering`: the groups' order (never turned around), the order inside
    /// a group (turned around, every term, by `--reverse`), then ties as the sources and their
    /// listings have them.
    static func terms(_ ordering: PostOrdering, sources: Int) -> String {
        var groups: [String] = []
        switch ordering.grouping {
        case .none: break
        case .author: groups = ["e.author COLLATE blogctl_alpha"]
        case .feed: groups = ["blogctl_feed(s.key) COLLATE blogctl_alpha"]
        case .tag: groups = ["blogctl_tag(s.key) COLLATE blogctl_alpha"]
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

    /// The comparisons and keys `terms` names, defined on this connection for `ordering`;
    /// `place`: each source's key, its place among the sources listed, its name and its tag group.
    static func define(_ db: SQLiteStatements, ordering: PostOrdering, place: [String: (index: Int, name: String?, tag: String)]) throws {
        try db.define(collation: "blogctl_alpha") { left, right in
            Self.asciiOrder(left, right, folding: true) ?? Self.compared(left, right) { a, b in PostOrdering.alphabeticalOrder(a, b) }
        }
        try db.define(function: "blogctl_month") { value in
            guard case .real(let seconds) = value else { return .integer(PostOrdering.unknownMonth) }
            return .integer(ordering.monthKey(Date(timeIntervalSince1970: seconds)))
        }
        try db.define(function: "blogctl_place") { value in .integer(value.string.flatMap { place[$0]?.index } ?? Int.max) }
        try db.define(function: "blogctl_feed") { value in .text(value.string.flatMap { place[$0]?.name } ?? "") }
        try db.define(function: "blogctl_tag") { value in .text(value.string.flatMap { place[$0]?.tag } ?? "") }
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
