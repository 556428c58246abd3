import FoundationEssentials
import SQLiteKit
import ToolboxKit

/// A listing read from the library in the order `list` shows it, by SQLite's sorter (which
/// spills to disk), one row at a time: no list of every entry is held, whatever a feed's size.
/// The order is `PostOrdering`'s own, exactly (`ListingOrder`), and LibraryOrderTests compares the two.
extension Library {
    /// An entry as `eachEntry` gives it: the post (its `feed` the name it was listed under),
    /// whether it was read, its flags (newsboat's letters), and the name of its group ("" when
    /// not grouped).
    public struct ListedEntry {
        public var post: PostMetadata
        public var read: Bool
        public var flags: String
        public var group: String
    }

    /// The entries of `sources` (each a server and the name its entries are listed under,
    /// nil for none), in `ordering`'s order: groups in theirs, entries inside in theirs, ties
    /// in the sources' order, then each listing's. `tags`: each source's tag group, by its
    /// server's `folderName`, for grouping by tag. `body` returns false to stop.
    public func eachEntry(of sources: [(server: ServerURL, name: String?)], ordering: PostOrdering, tags: [String: String] = [:],
                          _ body: (ListedEntry) throws(ToolError) -> Bool) throws(ToolError) {
        guard !sources.isEmpty else { return }
        var place: [String: (index: Int, name: String?, tag: String)] = [:]
        for (index, source) in sources.enumerated() where place[source.server.folderName] == nil {
            place[source.server.folderName] = (index, source.name, tags[source.server.folderName] ?? "")
        }
        try adopt(sources.map(\.server))
        var failure: ToolError?
        var stopped = false
        do {
            try read { db in
                try ListingOrder.define(db, ordering: ordering, place: place)
                try db.each("""
                    SELECT s.key, m.id IS NOT NULL, e.flags, \(EntryRow.columns) FROM sources s JOIN entries e ON e.source = s.id
                    LEFT JOIN marks m ON m.source = e.source AND m.id = e.id
                    WHERE s.key IN (SELECT value FROM json_each(?)) AND s.listed_at IS NOT NULL
                    ORDER BY \(ListingOrder.terms(ordering, sources: place.count))
                    """, [.text(Self.jsonArray(place.keys))]) { row in
                    guard failure == nil, let key = row.values[0].string, let source = place[key] else { return }
                    var post = EntryRow.post(row, from: 3)
                    post.feed = source.name
                    let group: String
                    switch ordering.grouping {
                    case .none: group = ""
                    case .author: group = post.author.name
                    case .feed: group = source.name ?? ""
                    case .tag: group = source.tag
                    case .month: group = PostOrdering.monthName(post.publishDate.map(ordering.monthKey) ?? PostOrdering.unknownMonth)
                    }
                    do throws(ToolError) {
                        stopped = try !body(ListedEntry(post: post, read: row.values[1].integer == 1, flags: row.values[2].string ?? "", group: group))
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
}
