#if canImport(Glibc)
import Glibc
#endif
import CSQLite3
import FoundationEssentials
import ToolboxKit

/// The full-text index of `blogctl search`, `search.sqlite` beside the post cache: an SQLite
/// FTS5 table of every listed post's title, author and summary, and the rendered text of
/// every cached body. `list` adds what it lists, the cache adds a body when it stores one and
/// drops it when it evicts or clears it, and `cache reindex` rebuilds it from the cache. It
/// is only ever a copy: an index that cannot be opened or fails its check is deleted and
/// rebuilt, never trusted.
public final class SearchIndex {
    public let path: String
    private var db: OpaquePointer?
    /// The schema this code writes; another one is rebuilt.
    /// 3: text indexed without the private-use characters `search` marks matches with.
    static let version = "3"
    /// The most rendered text indexed per post (the rest of a longer post is not searchable).
    public static let textLimit = 4 << 20

    public struct Hit: Sendable, Equatable, Encodable {
        public let id: String
        public let title: String
        public let author: String
        /// A few words around the best match, the matched words between `marks`.
        public let snippet: String
        public let cached: Bool

        public init(id: String, title: String, author: String, snippet: String, cached: Bool) {
            self.id = id
            self.title = title
            self.author = author
            self.snippet = snippet
            self.cached = cached
        }
    }

    /// Opens (creating it when missing) the index at `path`; a damaged or foreign file is
    /// removed and created anew. `rebuilt` says the index is new and must be filled.
    public private(set) var rebuilt = false

    /// With `fresh`, any existing file is removed first (`cache reindex`, damage found).
    public init(path: String, fresh: Bool = false) throws(ToolError) {
        self.path = path
        if fresh {
            unlink(path)
            rebuilt = true
        }
        if try !open() {
            close()
            unlink(path)
            rebuilt = true
            guard try open() else { throw .io(path: path, reason: "cannot create the search index") }
        }
    }

    deinit { close() }

    private func close() {
        if let db { sqlite3_close_v2(db) }
        db = nil
    }

    /// Opens and checks; false when the file is not a usable index of this version.
    private func open() throws(ToolError) -> Bool {
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOFOLLOW
        guard sqlite3_open_v2(path, &db, flags, nil) == SQLITE_OK else { return false }
        sqlite3_busy_timeout(db, 5000)
        chmod(path, 0o600)
        // A copy of the cache: no fsync per change (a crash that damages it means a rebuild).
        sqlite3_exec(db, "PRAGMA synchronous = OFF", nil, nil, nil)
        // Not a full integrity check at every open (it reads the whole file): damage that the
        // version read does not meet shows as an error later, and `search` rebuilds then.
        let existing = try? scalar("SELECT value FROM meta WHERE key = 'version'")
        // The version alone does not prove the tables: `posts` must be the FTS5 table this
        // code made (a file whose `posts` is another table failed every search until reindex).
        let shape = try? scalar("SELECT sql FROM sqlite_master WHERE name = 'posts'")
        if existing == Self.version, shape?.lowercased().contains("using fts5") == true { return true }
        // An empty file is new; anything else is another version or not ours: start again.
        let tables = (try? scalar("SELECT count(*) FROM sqlite_master")) ?? "?"
        guard tables == "0" else { return false }
        do {
            try execute("""
                BEGIN IMMEDIATE;
                CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT);
                CREATE VIRTUAL TABLE posts USING fts5(id UNINDEXED, title, author, summary, body,
                    tokenize = 'unicode61 remove_diacritics 2');
                CREATE TABLE ids(row INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE);
                CREATE TABLE cached(id TEXT PRIMARY KEY);
                INSERT INTO meta VALUES ('version', '\(Self.version)');
                COMMIT;
                """)
        } catch {
            return false
        }
        // A new index: whatever the cache already holds must be indexed.
        rebuilt = true
        return true
    }

    // MARK: - Updates

    /// Records the listed posts' titles, authors and summaries, keeping indexed bodies. A post
    /// whose listing is unchanged is left as it is (its body is not indexed again).
    public func addListing(_ posts: [PostMetadata]) throws(ToolError) {
        try transaction { () throws(ToolError) in
            for post in posts {
                let row = try row(post.id)
                let listed = [post.title, post.author.name, post.summary]
                let stored = try rows("SELECT title, author, summary FROM posts WHERE rowid = CAST(? AS INTEGER)", [row]) { $0 }.first
                if stored == listed { continue }
                let body = try scalar("SELECT body FROM posts WHERE rowid = CAST(? AS INTEGER)", [row]) ?? ""
                try put(row, post.id, listed + [body])
            }
        }
    }

    /// Indexes a cached body: the text `read` shows, without styles or link list.
    public func addBody(_ metadata: PostMetadata, text: String) throws(ToolError) {
        var text = text
        if text.utf8.count > Self.textLimit { text = String(decoding: text.utf8.prefix(Self.textLimit), as: UTF8.self) }
        try transaction { () throws(ToolError) in
            try put(try row(metadata.id), metadata.id, [metadata.title, metadata.author.name, metadata.summary, text])
            try run("INSERT OR IGNORE INTO cached(id) VALUES (?)", [metadata.id])
        }
    }

    /// Forgets a body that left the cache; the post's listing stays searchable.
    public func removeBody(_ id: String) throws(ToolError) {
        try transaction { () throws(ToolError) in
            guard let row = try scalar("SELECT row FROM ids WHERE id = ?", [id]),
                  let listed = try rows("SELECT title, author, summary FROM posts WHERE rowid = CAST(? AS INTEGER)", [row], { $0 }).first
            else { return }
            try put(row, id, listed + [""])
            try run("DELETE FROM cached WHERE id = ?", [id])
        }
    }

    /// The FTS5 row of post `id`, numbered when first seen. FTS5 finds a row quickly only by
    /// its rowid: `WHERE id = ?` on the table itself reads every row, bodies and all, which
    /// made each update cost the whole index (a `list` of 10,000 posts never ended).
    private func row(_ id: String) throws(ToolError) -> String {
        try run("INSERT OR IGNORE INTO ids(id) VALUES (?)", [id])
        guard let row = try scalar("SELECT row FROM ids WHERE id = ?", [id]) else { throw failure("search index") }
        return row
    }

    /// Replaces row `row` with the post's title, author, summary and body.
    private func put(_ row: String, _ id: String, _ columns: [String]) throws(ToolError) {
        try run("DELETE FROM posts WHERE rowid = CAST(? AS INTEGER)", [row])
        try run("INSERT INTO posts(rowid, id, title, author, summary, body) VALUES (CAST(? AS INTEGER), ?, ?, ?, ?, ?)",
                [row, id] + columns.map(SearchQuery.unmarked))
    }

    /// Every indexed body forgotten (`cache clear`).
    public func removeAllBodies() throws(ToolError) {
        try transaction { () throws(ToolError) in
            try run("UPDATE posts SET body = ''", [])
            try run("DELETE FROM cached", [])
        }
    }

    // MARK: - Search

    /// The posts matching every word (each word, or a word's start), best first: matches in
    /// titles count most, then authors, summaries, bodies (BM25).
    public func search(_ words: [String], limit: Int = 50, marks: (String, String) = ("[", "]")) throws(ToolError) -> [Hit] {
        do {
            return try query(words, limit: limit, marks: marks)
        } catch {
            // SQLite found damage: the file is not trusted again.
            let code = sqlite3_errcode(db)
            guard code == SQLITE_CORRUPT || code == SQLITE_NOTADB else { throw error }
            throw SearchIndex.damaged(path)
        }
    }

    static func damaged(_ path: String) -> ToolError { .badData("\(path): damaged; run blogctl cache reindex") }

    private func query(_ words: [String], limit: Int, marks: (String, String)) throws(ToolError) -> [Hit] {
        guard let query = try SearchQuery.fts5(words) else { return [] }
        // ORDER BY rank lets FTS5 sort the matches by rowid and score alone, so the snippet (which
        // reads and tokenizes a body again) is made only for the rows shown: ordering by a bm25()
        // expression made one for every match, 10,000 for a word in every post.
        let sql = """
            SELECT id, title, author,
                   snippet(posts, -1, ?, ?, '…', 12),
                   id IN (SELECT id FROM cached)
            FROM posts WHERE posts MATCH ? AND rank MATCH 'bm25(0.0, 10.0, 5.0, 3.0, 1.0)'
            ORDER BY rank LIMIT ?
            """
        return try rows(sql, [marks.0, marks.1, query, String(limit)]) { row in
            Hit(id: row[0], title: row[1], author: row[2], snippet: row[3], cached: row[4] == "1")
        }
    }

    public var bodyCount: Int { Int((try? scalar("SELECT count(*) FROM cached")) ?? "0") ?? 0 }
    /// Rows changed through this connection so far (for tests: what an update rewrote).
    var changeCount: Int { Int(sqlite3_total_changes(db)) }
    /// SQLite virtual-machine steps of every statement run so far: the work an update did,
    /// counted rather than timed (for tests: a post looked up by scanning is seen here).
    private(set) var stepCount = 0
    public var postCount: Int { Int((try? scalar("SELECT count(*) FROM posts")) ?? "0") ?? 0 }

    // MARK: - SQLite

    private func failure(_ what: String) -> ToolError {
        .io(path: path, reason: "\(what): \(String(cString: sqlite3_errmsg(db)))")
    }

    private func execute(_ sql: String) throws(ToolError) {
        guard sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else { throw failure("search index") }
    }

    private func transaction(_ body: () throws(ToolError) -> Void) throws(ToolError) {
        try execute("BEGIN IMMEDIATE")
        do {
            try body()
            try execute("COMMIT")
        } catch {
            sqlite3_exec(db, "ROLLBACK", nil, nil, nil)
            throw error
        }
    }

    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    private func prepare(_ sql: String, _ values: [String]) throws(ToolError) -> OpaquePointer {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK, let statement else { throw failure("search index") }
        for (index, value) in values.enumerated() {
            sqlite3_bind_text(statement, Int32(index + 1), value, -1, Self.transient)
        }
        return statement
    }

    private func finalize(_ statement: OpaquePointer) {
        stepCount += Int(sqlite3_stmt_status(statement, SQLITE_STMTSTATUS_VM_STEP, 0))
        sqlite3_finalize(statement)
    }

    private func run(_ sql: String, _ values: [String]) throws(ToolError) {
        let statement = try prepare(sql, values)
        defer { finalize(statement) }
        guard sqlite3_step(statement) == SQLITE_DONE else { throw failure("search index") }
    }

    private func rows<T>(_ sql: String, _ values: [String], _ make: ([String]) -> T) throws(ToolError) -> [T] {
        let statement = try prepare(sql, values)
        defer { finalize(statement) }
        var result: [T] = []
        while true {
            let step = sqlite3_step(statement)
            if step == SQLITE_DONE { return result }
            guard step == SQLITE_ROW else { throw failure("search") }
            let columns = (0..<sqlite3_column_count(statement)).map { column -> String in
                sqlite3_column_text(statement, column).map { String(cString: $0) } ?? ""
            }
            result.append(make(columns))
        }
    }

    private func scalar(_ sql: String, _ values: [String] = []) throws(ToolError) -> String? {
        try rows(sql, values) { $0.first ?? "" }.first
    }
}
