extension SearchIndex {
    /// The statements an update runs. FTS5 finds a row quickly only by its rowid: `WHERE id =
    /// ?` on the table itself reads every row, bodies and all, which made each update cost the
    /// whole index (a `list` of 10,000 posts never ended). `ids` numbers the posts for that.
    enum SQL {
        /// A post's row (by source and id), numbered when first seen.
        static let row = "INSERT INTO ids(source, id) VALUES (?, ?) ON CONFLICT(source, id) DO UPDATE SET id = excluded.id RETURNING row"
        /// Id, row, title, author and summary of the posts of a source whose ids follow in parentheses.
        static let listed = """
            SELECT i.id, i.row, p.title, p.author, p.summary
            FROM ids i JOIN posts p ON p.rowid = i.row WHERE i.source = ? AND i.id IN
            """
        /// The fingerprint of the listing of a source last taken (`SearchIndex.fingerprint`).
        static func listingKey(_ source: String) -> String { "listing:" + source }
        /// Set when a source's bodies were taken in (`SearchIndex.hasBodies`).
        static func bodiesKey(_ source: String) -> String { "bodies:" + source }
        static let meta = "SELECT value FROM meta WHERE key = ?"
        /// The fingerprints of every listing taken, by source.
        static let listings = "SELECT substr(key, 9), value FROM meta WHERE key >= 'listing:' AND key < 'listing;'"
        static let setListing = "INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)"
        static let forgetListing = "DELETE FROM meta WHERE key = ?"
        static let bodiesTaken = "SELECT substr(key, 8) FROM meta WHERE key >= 'bodies:' AND key < 'bodies;'"
        static let setBodies = "INSERT OR REPLACE INTO meta(key, value) VALUES (?, '1')"
        static let idRow = "SELECT row FROM ids WHERE source = ? AND id = ?"
        static let cachedRows = "SELECT c.row FROM cached c JOIN ids i ON i.row = c.row WHERE i.source = ?"
        /// Rows numbered for `count` new ids of one source (bound first): row and id of each.
        static func newRows(_ count: Int) -> String {
            "INSERT INTO ids(source, id) SELECT ?1, column1 FROM (VALUES " + SearchIndex.values(count, columns: 1)
                + ") WHERE true ON CONFLICT(source, id) DO UPDATE SET id = excluded.id RETURNING row, id"
        }
        /// The rows that follow in parentheses.
        static let delete = "DELETE FROM posts WHERE rowid IN "
        /// Rows follow: `(?, ?, ?, ?, ?)` each.
        static let insert = "INSERT INTO posts(rowid, id, title, author, summary) VALUES "
        static let insertChunk = "INSERT INTO chunks(rowid, text) VALUES (?, ?)"
        /// A post's chunks: rowids between its row shifted and the next row's.
        static let deleteChunks = "DELETE FROM chunks WHERE rowid BETWEEN ? AND ?"
        static let deleteGramChunks = "DELETE FROM gramchunks WHERE rowid BETWEEN ? AND ?"
        static let addCached = "INSERT OR IGNORE INTO cached(row) VALUES (?)"
        static let removeCached = "DELETE FROM cached WHERE row = ?"
        /// Every statement an update of one post runs (for tests: none may read every row).
        static let perPost = [row, listed + "(?)", newRows(2), idRow, delete + "(?, ?)", insert + "(?, ?, ?, ?, ?)", insertChunk, deleteChunks, deleteGramChunks, addCached, removeCached, cachedRows]
    }
}
