#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import SQLiteKit
import SQLiteNIO
import ToolboxKit

/// The full-text index of `blogctl search`, `search.sqlite` beside the post cache: an SQLite
/// FTS5 table of every listed post's title, author and summary, and the rendered text of
/// every cached body. `list` adds what it lists, the cache adds a body when it stores one and
/// drops it when it evicts or clears it, and `cache reindex` rebuilds it from the cache. It
/// is only ever a copy: an index that cannot be opened or fails its check is deleted and
/// rebuilt, never trusted.
public final class SearchIndex {
    public let path: String
    private var db: SQLiteFile?
    /// The schema this code writes; another one is rebuilt.
    /// 3: text indexed without the private-use characters `search` marks matches with.
    /// 4: written by sqlite-nio's SQLite rather than the system's (the same format; the
    ///    number says which code made the file, should the two ever differ).
    /// 5: the `grams` table (words in scripts without spaces).
    static let version = "5"
    /// The most rendered text indexed per post (the rest of a longer post is not searchable):
    /// FTS5 holds a document's terms in memory while it indexes it, about 25 MB for a MiB of
    /// text with few repeated words, and `read` and `ui` stay under 64 MB.
    public static let textLimit = 1 << 20
    /// Ids looked up per statement when a listing is checked against the index: each
    /// statement costs a trip to SQLite's thread, so 10,000 posts are checked in 20.
    static let lookupBatch = 500

    public struct Hit: Sendable, Equatable, Encodable {
        public let id: String
        public let title: String
        public let author: String
        /// A few words around the best match, the matched words between `marks`.
        public let snippet: String
        public let cached: Bool
        /// Which field `snippet` is from, when the search was asked to centre it (terminal only).
        public var field: String?

        enum CodingKeys: String, CodingKey { case id, title, author, snippet, cached }

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
        db?.close()
        db = nil
    }

    /// Opens and checks; false when the file is not a usable index of this version.
    private func open() throws(ToolError) -> Bool {
        // Not through a symlink (someone else's file written as ours): replaced instead.
        var info = stat()
        if lstat(path, &info) == 0, info.st_mode & S_IFMT != S_IFREG { return false }
        guard let opened = try? SQLiteFile(path, busyTimeout: 5000) else { return false }
        db = opened
        chmod(path, 0o600)
        // A copy of the cache: no fsync per change (a crash that damages it means a rebuild).
        guard (try? opened.executeAlone("PRAGMA synchronous = OFF")) != nil else { return false }
        // A small page cache: indexing a long post's text would otherwise hold megabytes of
        // pages in memory (read and ui stay under 64 MB); searches read few pages.
        _ = try? opened.executeAlone("PRAGMA cache_size = -1024")
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
            try transaction { statements in
                for sql in Self.schema { try Self.run(statements, sql) }
                try Self.run(statements, "INSERT INTO meta VALUES ('version', ?)", [.text(Self.version)])
            }
        } catch {
            return false
        }
        // A new index: whatever the cache already holds must be indexed.
        rebuilt = true
        return true
    }

    static let schema = [
        "CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT)",
        """
        CREATE VIRTUAL TABLE posts USING fts5(id UNINDEXED, title, author, summary, body,
            tokenize = 'unicode61 remove_diacritics 2')
        """,
        "CREATE TABLE ids(row INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE)",
        "CREATE TABLE cached(id TEXT PRIMARY KEY)",
        gramsSchema,
    ]

    // MARK: - Updates

    /// Records the listed posts' titles, authors and summaries, keeping indexed bodies. A post
    /// whose listing is unchanged is left as it is (its body is not indexed again).
    public func addListing(_ posts: [PostMetadata]) throws(ToolError) {
        try transaction { db in
            for start in stride(from: 0, to: posts.count, by: Self.lookupBatch) {
                let batch = posts[start..<min(start + Self.lookupBatch, posts.count)]
                let marks = Array(repeating: "?", count: batch.count).joined(separator: ", ")
                var stored: [String: (row: Int, listed: [String])] = [:]
                for columns in try Self.rows(db, SQL.listed + "(\(marks))", batch.map { .text($0.id) }) {
                    stored[columns[0]] = (Int(columns[1]) ?? 0, Array(columns[2...]))
                }
                for post in batch {
                    let listed = [post.title, post.author.name, post.summary]
                    if let known = stored[post.id], known.listed == listed { continue }
                    let row = try stored[post.id]?.row ?? Self.row(db, post.id)
                    let body = try Self.rows(db, SQL.body, [.integer(row)]).first?.first ?? ""
                    try Self.put(db, row, post.id, listed + [body])
                }
            }
        }
    }

    /// Indexes a cached body: the text `read` shows, without styles or link list.
    public func addBody(_ metadata: PostMetadata, text: String) throws(ToolError) {
        var text = text
        if text.utf8.count > Self.textLimit { text = String(decoding: text.utf8.prefix(Self.textLimit), as: UTF8.self) }
        try transaction { db in
            try Self.put(db, try Self.row(db, metadata.id), metadata.id,
                         [metadata.title, metadata.author.name, metadata.summary, text])
            try Self.run(db, SQL.addCached, [.text(metadata.id)])
        }
    }

    /// Forgets a body that left the cache; the post's listing stays searchable.
    public func removeBody(_ id: String) throws(ToolError) {
        try transaction { db in
            guard let columns = try Self.rows(db, SQL.listed + "(?)", [.text(id)]).first,
                  let row = Int(columns[1]), columns.count == 5
            else { return }
            try Self.put(db, row, id, Array(columns[2...]) + [""])
            try Self.run(db, SQL.removeCached, [.text(id)])
        }
    }

    /// Every indexed body forgotten (`cache clear`).
    public func removeAllBodies() throws(ToolError) {
        try transaction { db in
            try Self.run(db, "UPDATE posts SET body = ''")
            try Self.run(db, "UPDATE grams SET body = ''")
            try Self.run(db, "DELETE FROM cached")
        }
    }

    private static func row(_ db: SQLiteStatements, _ id: String) throws -> Int {
        guard let row = try rows(db, SQL.row, [.text(id)]).first?.first.flatMap({ Int($0) }) else {
            throw ToolError.badData("search index: no row for post \(id)")
        }
        return row
    }

    /// Replaces row `row` with the post's title, author, summary and body.
    private static func put(_ db: SQLiteStatements, _ row: Int, _ id: String, _ columns: [String]) throws {
        try run(db, SQL.delete, [.integer(row)])
        try run(db, SQL.insert, [.integer(row), .text(id)] + columns.map { .text(SearchQuery.unmarked($0)) })
        try putGrams(db, row, columns)
    }

    // MARK: - Search

    /// The posts matching every word (each word, or a word's start), best first: matches in
    /// titles count most, then authors, summaries, bodies (BM25). Damage found on the way
    /// throws `damaged`.
    /// `centred` (a terminal): the snippet from the field that matched, centred on its first
    /// matched word and named (`SearchSnippet`); that reads each shown row's fields whole.
    public func search(_ words: [String], limit: Int = 50, marks: (String, String) = ("[", "]"),
                       centred: Bool = false) throws(ToolError) -> [Hit] {
        let split = SplitQuery(words)
        guard let query = try SearchQuery.fts5(split.spaced) else {
            guard split.hasUnspaced else { return [] }
            return try alone { db in try Self.unspacedRows(db, split, limit: limit, marks: marks) }
        }
        let unspaced: (sql: String, values: [SQLiteData]) = split.hasUnspaced ? split.rowCondition : ("1", [])
        if centred { return try centredSearch(query, also: unspaced, limit: limit, marks: marks) }
        // ORDER BY rank lets FTS5 sort the matches by rowid and score alone, so the snippet (which
        // reads and tokenizes a body again) is made only for the rows shown: ordering by a bm25()
        // expression made one for every match, 10,000 for a word in every post.
        let sql = """
            SELECT id, title, author,
                   snippet(posts, -1, ?, ?, '…', 12),
                   id IN (SELECT id FROM cached)
            FROM posts WHERE posts MATCH ? AND \(unspaced.sql) AND rank MATCH 'bm25(0.0, 10.0, 5.0, 3.0, 1.0)'
            ORDER BY rank LIMIT ?
            """
        return try alone { db in
            try Self.rows(db, sql, [.text(marks.0), .text(marks.1), .text(query)] + unspaced.values + [.integer(limit)]).map { row in
                Hit(id: row[0], title: row[1], author: row[2], snippet: row[3], cached: row[4] == "1")
            }
        }
    }

    private func centredSearch(_ query: String, also unspaced: (sql: String, values: [SQLiteData]), limit: Int,
                               marks: (String, String)) throws(ToolError) -> [Hit] {
        let sql = """
            SELECT id, title, author, highlight(posts, 4, ?, ?), highlight(posts, 3, ?, ?), highlight(posts, 2, ?, ?),
                   highlight(posts, 1, ?, ?), id IN (SELECT id FROM cached)
            FROM posts WHERE posts MATCH ? AND \(unspaced.sql) AND rank MATCH 'bm25(0.0, 10.0, 5.0, 3.0, 1.0)'
            ORDER BY rank LIMIT ?
            """
        let markValues = Array(repeating: [SQLiteData.text(marks.0), .text(marks.1)], count: 4).flatMap { $0 }
        return try alone { db in
            try Self.rows(db, sql, markValues + [.text(query)] + unspaced.values + [.integer(limit)]).map { row in
                let found = SearchSnippet.centred(Array(row[3...6]), marks: marks)
                var hit = Hit(id: row[0], title: row[1], author: row[2], snippet: found?.text ?? "", cached: row[7] == "1")
                hit.field = found?.field
                return hit
            }
        }
    }

    static func damaged(_ path: String) -> ToolError { .badData("\(path): damaged; run blogctl cache reindex") }

    public var bodyCount: Int { Int((try? scalar("SELECT count(*) FROM cached")) ?? "0") ?? 0 }
    public var postCount: Int { Int((try? scalar("SELECT count(*) FROM posts")) ?? "0") ?? 0 }
    /// Rows changed through this connection so far (for tests: what an update rewrote).
    var changeCount: Int { Int((try? scalar("SELECT total_changes()")) ?? "0") ?? 0 }

    /// How SQLite would run `sql`, one line per step (for tests: a step that reads every row
    /// of `posts` shows as `SCAN posts VIRTUAL TABLE INDEX 0:`, a rowid lookup with `=`).
    func plan(_ sql: String) throws(ToolError) -> [String] {
        let binds = Array(repeating: SQLiteData.null, count: sql.filter { $0 == "?" }.count)
        return try alone { db in try Self.rows(db, "EXPLAIN QUERY PLAN " + sql, binds).map { $0.last ?? "" } }
    }

    // MARK: - SQLite

    /// Runs `body` in one write transaction; SQLite's errors become the tool's.
    private func transaction(_ body: (SQLiteStatements) throws -> Void) throws(ToolError) {
        guard let db else { throw .io(path: path, reason: "search index closed") }
        do {
            try db.transaction(.write) { statements in try body(statements) }
        } catch {
            throw describe(error)
        }
    }

    private func alone<T>(_ body: (SQLiteStatements) throws -> T) throws(ToolError) -> T {
        guard let db else { throw .io(path: path, reason: "search index closed") }
        do {
            return try db.alone { statements in try body(statements) }
        } catch {
            throw describe(error)
        }
    }

    /// Damage SQLite found means the file is not trusted again; anything else is said as is.
    private func describe(_ error: any Error) -> ToolError {
        if let error = error as? ToolError { return error }
        guard let error = error as? SQLiteError else { return .io(path: path, reason: "search index: \(error)") }
        switch error.reason {
        case .corrupt, .corruptIndex, .corruptVirtualTable, .corruptSequenceSchema, .notADatabase:
            return Self.damaged(path)
        default:
            return .io(path: path, reason: "search index: \(error.message)")
        }
    }

    private static func run(_ db: SQLiteStatements, _ sql: String, _ values: [SQLiteData] = []) throws {
        _ = try rows(db, sql, values)
    }

    /// Every row `sql` returns, each column as text ("" for NULL).
    private static func rows(_ db: SQLiteStatements, _ sql: String, _ values: [SQLiteData] = []) throws -> [[String]] {
        try db.rows(sql, values).map { row in row.columns.map { $0.data.string ?? "" } }
    }

    private func scalar(_ sql: String) throws(ToolError) -> String? {
        try alone { db in try Self.rows(db, sql).first?.first }
    }
}
