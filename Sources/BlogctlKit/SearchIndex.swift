#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import SQLiteKit
import ToolboxKit

/// The full-text index of `blogctl search`, one `search.sqlite` for every source the library
/// holds (each API server and feed, named by `ServerURL.folderName`): an SQLite FTS5 table of
/// every listed post's title, author and summary, and one of the rendered text of every cached
/// body in chunks (`SearchChunker`, `SearchMatches`). A search across every subscription is
/// one query. The library's listing is taken in at the first search after it changed, the cache
/// adds a body when it stores one and drops it when it evicts or clears it, and `cache reindex`
/// rebuilds it. It is only ever a copy: an index that cannot be opened or fails its check is
/// deleted and rebuilt, never trusted, and a source whose bodies it has not taken in yet
/// (`hasBodies`) is filled from its cache folder.
public final class SearchIndex {
    public let path: String
    private var db: SQLiteFile?
    /// The schema this code writes; another one is rebuilt.
    /// 3: text indexed without the private-use characters `search` marks matches with.
    /// 4: written by sqlite-nio's SQLite rather than the system's (the same format; the
    ///    number says which code made the file, should the two ever differ).
    /// 5: the `grams` table (words in scripts without spaces).
    /// 6: bodies in chunks, whole (the first MiB only before).
    /// 8: one index for every source, each post's row keyed by source and id.
    static let version = "8"
    /// Ids looked up per statement when a listing is checked against the index: each
    /// each statement is prepared and planned anew, so 10,000 posts are checked in 20.
    static let lookupBatch = 500

    /// A post a search found (`SearchHit`).
    public typealias Hit = SearchHit

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
        CREATE VIRTUAL TABLE posts USING fts5(id UNINDEXED, title, author, summary,
            tokenize = 'unicode61 remove_diacritics 2')
        """,
        "CREATE VIRTUAL TABLE chunks USING fts5(text, tokenize = 'unicode61 remove_diacritics 2')",
        "CREATE TABLE ids(row INTEGER PRIMARY KEY, source TEXT NOT NULL, id TEXT NOT NULL, UNIQUE(source, id))",
        "CREATE TABLE cached(row INTEGER PRIMARY KEY)",
        SearchGrams.gramsSchema,
        SearchGrams.gramChunksSchema,
    ]

    // MARK: - Updates

    /// Indexes a cached body given whole: the text `read` shows, without styles or link list.
    public func addBody(_ metadata: PostMetadata, source: String = "", text: String) throws(ToolError) {
        try addBody(metadata, source: source) { add in
            for chunk in SearchChunker.chunks(text) { add(chunk) }
        }
    }

    /// Indexes a cached body as `produce` lays it out, chunk by chunk (`SearchChunker`): a body
    /// of any length is indexed whole in little memory, as one transaction.
    public func addBody(_ metadata: PostMetadata, source: String = "", produce: (_ add: (String) -> Void) -> Void) throws(ToolError) {
        try transaction { db in try Self.addBody(db, metadata, source: source, produce: produce) }
    }

    /// Many bodies, each in chunks already laid out, in one transaction (a feed's entries).
    public func addBodies(_ bodies: [(metadata: PostMetadata, chunks: [String])], source: String = "") throws(ToolError) {
        try transaction { db in
            for body in bodies { try Self.addBody(db, body.metadata, source: source) { add in body.chunks.forEach(add) } }
        }
    }

    private static func addBody(_ db: SQLiteStatements, _ metadata: PostMetadata, source: String,
                                produce: (_ add: (String) -> Void) -> Void) throws {
        let row = try Self.row(db, source, metadata.id)
        try Self.put(db, [(row, metadata.id, [metadata.title, metadata.author.name, metadata.summary])])
        // The post's fields may now differ from the listing last taken: the next is compared.
        try Self.run(db, SQL.forgetListing, [.text(SQL.listingKey(source))])
        try Self.removeChunks(db, row)
        var failure: (any Error)?
        var next = row << SearchIndex.chunkShift
        produce { chunk in
            guard failure == nil, next & ((1 << SearchIndex.chunkShift) - 1) != (1 << SearchIndex.chunkShift) - 1 else { return }
            do {
                let text = SearchQuery.unmarked(chunk)
                try Self.run(db, SQL.insertChunk, [.integer(next), .text(text)])
                try SearchGrams.putGramChunk(db, next, text)
                next += 1
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
        try Self.run(db, SQL.addCached, [.integer(row)])
    }

    /// Forgets a body that left the cache; the post's listing stays searchable.
    public func removeBody(_ id: String, source: String = "") throws(ToolError) {
        try transaction { db in
            guard let row = try Self.rows(db, SQL.idRow, [.text(source), .text(id)]).first?.first.flatMap({ Int($0) }) else { return }
            try Self.removeChunks(db, row)
            try Self.run(db, SQL.removeCached, [.integer(row)])
        }
    }

    /// Every indexed body of `source` forgotten (`cache clear`, a rebuild of its bodies).
    public func removeAllBodies(source: String = "") throws(ToolError) {
        try transaction { db in
            for row in try Self.rows(db, SQL.cachedRows, [.text(source)]).compactMap({ $0.first.flatMap { Int($0) } }) {
                try Self.removeChunks(db, row)
                try Self.run(db, SQL.removeCached, [.integer(row)])
            }
        }
    }

    /// Records that every body of `source` is in (its cache folder taken in whole, or cleared).
    public func tookInBodies(source: String = "") throws(ToolError) {
        try transaction { db in try Self.run(db, SQL.setBodies, [.text(SQL.bodiesKey(source))]) }
    }

    /// The sources whose bodies were taken in, in one read (a search across every feed).
    public func sourcesWithBodies() throws(ToolError) -> Set<String> {
        try alone { db in Set(try Self.rows(db, SQL.bodiesTaken).map { $0[0] }) }
    }

    /// Whether the bodies of `source` were taken in (`tookInBodies`): a rebuilt index has
    /// none, and its sources are filled from their cache folders again.
    public func hasBodies(source: String = "") throws(ToolError) -> Bool {
        try alone { db in try !Self.rows(db, SQL.meta, [.text(SQL.bodiesKey(source))]).isEmpty }
    }

    private static func removeChunks(_ db: SQLiteStatements, _ row: Int) throws {
        try run(db, SQL.deleteChunks, SearchIndex.chunkRows(row))
        try run(db, SQL.deleteGramChunks, SearchIndex.chunkRows(row))
    }

    static func row(_ db: SQLiteStatements, _ source: String, _ id: String) throws -> Int {
        guard let row = try rows(db, SQL.row, [.text(source), .text(id)]).first?.first.flatMap({ Int($0) }) else {
            throw ToolError.badData("search index: no row for post \(id)")
        }
        return row
    }

    /// Replaces each post's row with its title, author and summary, in four statements.
    static func put(_ db: SQLiteStatements, _ posts: [(row: Int, id: String, fields: [String])]) throws {
        try run(db, SQL.delete + list(posts.count), posts.map { .integer($0.row) })
        try run(db, SQL.insert + values(posts.count, columns: 5),
                posts.flatMap { [.integer($0.row), .text($0.id)] + $0.fields.map { .text(SearchQuery.unmarked($0)) } })
        try SearchGrams.putGrams(db, posts.map { ($0.row, $0.fields) })
    }

    /// `(?, ?, …)`: `count` parameters.
    static func list(_ count: Int) -> String { "(" + Array(repeating: "?", count: count).joined(separator: ", ") + ")" }

    /// `(?, …), (?, …)`: `count` rows of `columns` parameters.
    static func values(_ count: Int, columns: Int) -> String {
        Array(repeating: list(columns), count: count).joined(separator: ", ")
    }

    // MARK: - Search

    /// A body's chunks are rows `row << chunkShift` up to the next post's (16 million chunks).
    static let chunkShift = 24

    static func chunkRows(_ row: Int) -> [SQLValue] {
        [.integer(row << chunkShift), .integer((row << chunkShift) | ((1 << chunkShift) - 1))]
    }

    /// The posts holding every word (each word, or a word's start) in a field or their body,
    /// best first (`SearchMatches`). Damage found on the way throws `damaged`.
    /// `centred` (a terminal): the snippet from the field that matched, centred on its first
    /// matched word and named (`SearchSnippet`). `sources`: the sources searched (nil: all).
    public func search(_ words: [String], sources: [String]? = nil, limit: Int = 50, marks: (String, String) = ("[", "]"),
                       centred: Bool = false) throws(ToolError) -> [Hit] {
        let split = SearchGrams.SplitQuery(words)
        let terms = try SearchQuery.terms(split.spaced)
        return try alone { db in try SearchMatches.matches(db, split, terms: terms, sources: sources, limit: limit, marks: marks, centred: centred) }
    }

    static func damaged(_ path: String) -> ToolError { .badData("\(path): damaged; run blogctl cache reindex") }

    public var bodyCount: Int { Int((try? scalar("SELECT count(*) FROM cached")) ?? "0") ?? 0 }
    public var postCount: Int { Int((try? scalar("SELECT count(*) FROM posts")) ?? "0") ?? 0 }
    /// Rows changed through this connection so far (for tests: what an update rewrote).
    var changeCount: Int { (try? alone { $0.totalChanges() }) ?? 0 }

    /// How SQLite would run `sql`, one line per step (for tests: a step that reads every row
    /// of `posts` shows as `SCAN posts VIRTUAL TABLE INDEX 0:`, a rowid lookup with `=`).
    /// Its parameters are left unbound: SQLite plans them as NULLs.
    func plan(_ sql: String) throws(ToolError) -> [String] {
        try alone { db in try Self.rows(db, "EXPLAIN QUERY PLAN " + sql).map { $0.last ?? "" } }
    }

    // MARK: - SQLite

    /// Runs `body` in one write transaction; SQLite's errors become the tool's.
    func transaction(_ body: (SQLiteStatements) throws -> Void) throws(ToolError) {
        guard let db else { throw .io(path: path, reason: "search index closed") }
        do {
            try db.transaction(.write) { statements in try body(statements) }
        } catch {
            throw describe(error)
        }
    }

    func alone<T>(_ body: (SQLiteStatements) throws -> T) throws(ToolError) -> T {
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
        return error.isDamage ? Self.damaged(path) : .io(path: path, reason: "search index: \(error.message)")
    }

    static func run(_ db: SQLiteStatements, _ sql: String, _ values: [SQLValue] = []) throws {
        _ = try rows(db, sql, values)
    }

    /// Every row `sql` returns, each column as text ("" for NULL).
    static func rows(_ db: SQLiteStatements, _ sql: String, _ values: [SQLValue] = []) throws -> [[String]] {
        try db.rows(sql, values).map { row in row.values.map { $0.string ?? "" } }
    }

    private func scalar(_ sql: String) throws(ToolError) -> String? {
        try alone { db in try Self.rows(db, sql).first?.first }
    }
}
