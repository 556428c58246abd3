import FuzzSQLite

// blogctl search's words as an FTS5 query. Property: whatever the words, the query is
// refused in words (too many) or is valid FTS5 syntax that SQLite's own parser accepts on a
// real FTS5 table: no word can become syntax (a quote, NEAR, OR, a column filter).
nonisolated(unsafe) var database: OpaquePointer? = {
    // Safe: libFuzzer calls the harness on one thread, one input at a time.
    var db: OpaquePointer?
    sqlite_nio_sqlite3_open(":memory:", &db)
    sqlite_nio_sqlite3_exec(db, "CREATE VIRTUAL TABLE posts USING fts5(id UNINDEXED, title, author, summary, body, tokenize = 'unicode61 remove_diacritics 2'); INSERT INTO posts VALUES ('1', 'a title', 'an author', 'a summary', 'a body');", nil, nil, nil)
    return db
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let words = UnsafeBufferPointer(start: data, count: size).split(separator: 0x00, omittingEmptySubsequences: false)
        .map { String(decoding: $0, as: UTF8.self) }
    let query: String?
    do { query = try SearchQuery.fts5(words) } catch { return 0 }
    guard let query else { return 0 }
    var statement: OpaquePointer?
    guard sqlite_nio_sqlite3_prepare_v2(database, "SELECT count(*) FROM posts WHERE posts MATCH ?", -1, &statement, nil) == SQLITE_OK else {
        fatalError("prepare failed")
    }
    defer { sqlite_nio_sqlite3_finalize(statement) }
    sqlite_nio_sqlite3_bind_text(statement, 1, query, -1, unsafeBitCast(-1, to: sqlite3_destructor_type.self))
    let result = sqlite_nio_sqlite3_step(statement)
    guard result == SQLITE_ROW else {
        fatalError("FTS5 refused \(query.debugDescription): \(String(cString: sqlite_nio_sqlite3_errmsg(database)))")
    }
    return 0
}
