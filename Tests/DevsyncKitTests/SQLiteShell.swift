import SQLiteKit

/// Runs one SQL statement on the store at `path` behind devsync's back, as another program
/// (or the sqlite3 shell) would.
func sqlite(_ path: String, _ sql: String) {
    _ = try? sqliteRows(path, sql)
}

/// The first column of the first row `sql` returns, as an integer.
func sqliteValue(_ path: String, _ sql: String) throws -> Int? {
    try sqliteRows(path, sql).first?.first?.integer
}

/// A connection of its own, as another process would open: not the store's.
func sqliteRows(_ path: String, _ sql: String) throws -> [SQLRow] {
    let connection = try SQLiteFile(path)
    defer { connection.close() }
    return try connection.alone { try $0.rows(sql) }
}
