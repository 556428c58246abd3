import VaporCSQLite

/// The statements of one transaction (or of one `alone` call): valid only inside it.
public struct SQLiteStatements {
    let connection: OpaquePointer
    let cache: StatementCache

    init(connection: OpaquePointer, cache: StatementCache) {
        self.connection = connection
        self.cache = cache
    }

    /// Every row `sql` returns.
    public func rows(_ sql: String, _ values: [SQLValue] = []) throws -> [SQLRow] {
        var rows: [SQLRow] = []
        try each(sql, values) { rows.append($0) }
        return rows
    }

    /// Each row as SQLite steps to it, none kept: 100,000 rows are read without holding them all.
    public func each(_ sql: String, _ values: [SQLValue] = [], _ body: (SQLRow) throws -> Void) throws {
        CrashPoint.reach()
        // A statement already compiled on this connection is used again (reset and unbound
        // after each use); a new one is compiled and kept.
        guard let (statement, kept) = try cache.checkOut(sql, on: connection) else { return }
        defer { cache.checkIn(sql, statement, kept: kept) }
        try PreparedStatement.step(statement, values, on: connection, row: body)
    }

    public func execute(_ sql: String, _ values: [SQLValue] = []) throws {
        try each(sql, values) { _ in }
    }

    /// The first column of the first row, if any.
    public func value(_ sql: String, _ values: [SQLValue] = []) throws -> SQLValue? {
        var first: SQLValue?
        try each(sql, values) { row in if first == nil { first = row.first } }
        return first
    }

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    public func changes() -> Int {
        Int(sqlite_nio_sqlite3_changes64(connection))
    }

    /// Rows changed through this connection since it was opened.
    public func totalChanges() -> Int {
        Int(sqlite_nio_sqlite3_total_changes64(connection))
    }
}

/// The statements a connection compiled, by their SQL, so that a statement run again (a
/// lookup per feed, per mark) is compiled once. One in use (the same SQL run again inside its
/// own rows) is not shared: a second copy is compiled for the inner run and let go after it.
/// Bounded: past `capacity` the oldest half goes.
final class StatementCache {
    private var compiled: [String: OpaquePointer] = [:]
    private var order: [String] = []
    private var inUse: Set<String> = []
    static let capacity = 64

    /// The compiled `sql` and whether it is the kept copy; nil when it holds no statement.
    func checkOut(_ sql: String, on connection: OpaquePointer) throws -> (OpaquePointer, kept: Bool)? {
        if inUse.contains(sql) {
            return try PreparedStatement.prepare(sql, on: connection).map { ($0, false) }
        }
        inUse.insert(sql)
        if let statement = compiled[sql] { return (statement, true) }
        guard let statement = try PreparedStatement.prepare(sql, on: connection) else {
            inUse.remove(sql)
            return nil
        }
        if order.count >= Self.capacity {
            for old in order.prefix(Self.capacity / 2) where !inUse.contains(old) {
                sqlite_nio_sqlite3_finalize(compiled.removeValue(forKey: old))
            }
            order = order.filter { compiled[$0] != nil }
        }
        compiled[sql] = statement
        order.append(sql)
        return (statement, true)
    }

    func checkIn(_ sql: String, _ statement: OpaquePointer, kept: Bool) {
        if kept { inUse.remove(sql) } else { sqlite_nio_sqlite3_finalize(statement) }
    }

    func finalizeAll() {
        for statement in compiled.values { sqlite_nio_sqlite3_finalize(statement) }
        compiled = [:]
        order = []
    }
}
