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
        static let body = "SELECT body FROM posts WHERE rowid = ?"
        static let delete = "DELETE FROM posts WHERE rowid = ?"
        static let insert = "INSERT INTO posts(rowid, id, title, author, summary, body) VALUES (?, ?, ?, ?, ?, ?)"
        static let addCached = "INSERT OR IGNORE INTO cached(id) VALUES (?)"
        static let removeCached = "DELETE FROM cached WHERE id = ?"
        /// Every statement an update of one post runs (for tests: none may read every row).
        static let perPost = [row, listed + "(?)", body, delete, insert, addCached, removeCached]
    }
}
