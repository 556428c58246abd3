import SQLiteNIO

/// Runs one SQL statement on the store at `path` behind devsync's back, as another program
/// (or the sqlite3 shell) would.
func sqlite(_ path: String, _ sql: String) {
    _ = try? sqliteRows(path, sql)
}

/// The first column of the first row `sql` returns, as an integer.
func sqliteValue(_ path: String, _ sql: String) throws -> Int? {
    try sqliteRows(path, sql).first?.columns.first?.data.integer
}

func sqliteRows(_ path: String, _ sql: String) throws -> [SQLiteRow] {
    let connection = try SQLiteConnection.open(storage: .file(path: path)).wait()
    defer { _ = try? connection.close().wait() }
    return try connection.query(sql).wait()
}
