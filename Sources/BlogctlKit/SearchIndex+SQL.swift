extension SearchIndex {
    /// The statements an update runs. FTS5 finds a row quickly only by its rowid: `WHERE id =
    /// ?` on the table itself reads every row, bodies and all, which made each update cost the
    /// whole index (a `list` of 10,000 posts never ended). `ids` numbers the posts for that.
    enum SQL {
        /// A post's row, numbered when first seen.
        static let row = "INSERT INTO ids(id) VALUES (?) ON CONFLICT(id) DO UPDATE SET id = excluded.id RETURNING row"
        /// Id, row, title, author and summary of the posts whose ids follow in parentheses.
        static let listed = """
            SELECT i.id, i.row, p.title, p.author, p.summary
            FROM ids i JOIN posts p ON p.rowid = i.row WHERE i.id IN
            """
        /// The fingerprint of the listing last taken (`SearchIndex.fingerprint`).
        static let listing = "SELECT value FROM meta WHERE key = 'listing'"
        static let setListing = "INSERT OR REPLACE INTO meta(key, value) VALUES ('listing', ?)"
        static let forgetListing = "DELETE FROM meta WHERE key = 'listing'"
        static let idRow = "SELECT row FROM ids WHERE id = ?"
        /// Rows numbered for `count` new ids: row and id of each.
        static func newRows(_ count: Int) -> String {
            "INSERT INTO ids(id) VALUES " + SearchIndex.values(count, columns: 1) + " ON CONFLICT(id) DO UPDATE SET id = excluded.id RETURNING row, id"
        }
        /// The rows that follow in parentheses.
        static let delete = "DELETE FROM posts WHERE rowid IN "
        /// Rows follow: `(?, ?, ?, ?, ?)` each.
        static let insert = "INSERT INTO posts(rowid, id, title, author, summary) VALUES "
        static let insertChunk = "INSERT INTO chunks(rowid, text) VALUES (?, ?)"
        /// A post's chunks: rowids between its row shifted and the next row's.
        static let deleteChunks = "DELETE FROM chunks WHERE rowid BETWEEN ? AND ?"
        static let deleteGramChunks = "DELETE FROM gramchunks WHERE rowid BETWEEN ? AND ?"
        static let addCached = "INSERT OR IGNORE INTO cached(id) VALUES (?)"
        static let removeCached = "DELETE FROM cached WHERE id = ?"
        /// Every statement an update of one post runs (for tests: none may read every row).
        static let perPost = [row, listed + "(?)", newRows(2), idRow, delete + "(?, ?)", insert + "(?, ?, ?, ?, ?)", insertChunk, deleteChunks, deleteGramChunks, addCached, removeCached]
    }
}
