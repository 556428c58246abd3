import SQLiteKit
import ToolboxKit

/// What `list` teaches the index: the listed posts' titles, authors and summaries.
extension SearchIndex {
    /// Records the listed posts' titles, authors and summaries; their bodies' chunks stay. A post
    /// whose listing is unchanged is left as it is. A few statements per `lookupBatch` posts:
    /// each statement is a trip to SQLite's thread, and one per post made a first `list` of
    /// 100,000 posts take 40 s.
    /// `fingerprint`: what names this listing (by default, `fingerprint(posts)`).
    public func addListing(_ posts: [PostMetadata], source: String = "", fingerprint given: String? = nil) throws(ToolError) {
        // The last of a post listed twice is the one kept.
        var last: [String: Int] = [:]
        for (position, post) in posts.enumerated() { last[post.id] = position }
        let unique = last.count == posts.count ? posts : posts.indices.filter { last[posts[$0].id] == $0 }.map { posts[$0] }
        let fingerprint = given ?? Self.fingerprint(unique)
        try transaction { db in
            // The same listing as last time (a `list` run again): nothing to compare.
            if try Self.rows(db, SQL.meta, [.text(SQL.listingKey(source))]).first?.first == fingerprint { return }
            for start in stride(from: 0, to: unique.count, by: Self.lookupBatch) {
                let batch = unique[start..<min(start + Self.lookupBatch, unique.count)]
                var stored: [String: (row: Int, listed: [String])] = [:]
                for columns in try Self.rows(db, SQL.listed + Self.list(batch.count), [.text(source)] + batch.map { .text($0.id) }) {
                    stored[columns[0]] = (Int(columns[1]) ?? 0, Array(columns[2...]))
                }
                let changed = batch.filter { post in stored[post.id]?.listed != [post.title, post.author.name, post.summary] }
                guard !changed.isEmpty else { continue }
                var rows = stored.mapValues(\.row)
                let new = changed.filter { rows[$0.id] == nil }
                if !new.isEmpty {
                    for columns in try Self.rows(db, SQL.newRows(new.count), [.text(source)] + new.map { .text($0.id) }) {
                        rows[columns[1]] = Int(columns[0])
                    }
                }
                try Self.put(db, try changed.map { post in
                    guard let row = rows[post.id] else { throw ToolError.badData("search index: no row for post \(post.id)") }
                    return (row, post.id, [post.title, post.author.name, post.summary])
                })
            }
            try Self.run(db, SQL.setListing, [.text(SQL.listingKey(source)), .text(fingerprint)])
        }
    }

    /// The fingerprint of the listing of `source` last taken; nil when none was.
    public func listingFingerprint(source: String = "") throws(ToolError) -> String? {
        try alone { db in try Self.rows(db, SQL.meta, [.text(SQL.listingKey(source))]).first?.first }
    }

    /// The fingerprint of every source's listing last taken, by source: one read for a search
    /// across every subscription.
    public func listingFingerprints() throws(ToolError) -> [String: String] {
        try alone { db in
            Dictionary(try Self.rows(db, SQL.listings).map { ($0[0], $0[1]) }, uniquingKeysWith: { $1 })
        }
    }

    /// The listed fields of `posts`, in order, as 16 hex digits (FNV-1a over each field and its
    /// length): what `addListing` last took, so that the same listing again costs one lookup
    /// instead of reading back 100,000 rows.
    static func fingerprint(_ posts: [PostMetadata]) -> String {
        var hash = FNV1a()
        func mix(_ text: String) {
            hash.add(text.utf8)
            withUnsafeBytes(of: UInt64(text.utf8.count).littleEndian) { hash.add($0) }
        }
        for post in posts {
            mix(post.id)
            mix(post.title)
            mix(post.author.name)
            mix(post.summary)
        }
        return hash.hex
    }
}
