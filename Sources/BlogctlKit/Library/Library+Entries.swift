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

    /// Strings as one JSON array, for `json_each`: any number of keys bound as one value.
    static func jsonArray(_ strings: some Sequence<String>) -> String {
        String(decoding: JSONCoding.encode(Array(strings)), as: UTF8.self)
    }
}
