import CSQLite

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
        guard let (statement, entry) = try cache.checkOut(sql, on: connection) else { return }
        defer { cache.checkIn(statement, entry) }
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
/// Bounded: past `capacity` the oldest half goes. The statement run last is found without
/// hashing its SQL (a listing's insert, run for each of 100,000 rows, was hashed each time).
final class StatementCache {
    final class Entry {
        let statement: OpaquePointer
        var inUse = false
        init(_ statement: OpaquePointer) { self.statement = statement }
    }

    private var compiled: [String: Entry] = [:]
    private var order: [String] = []
    private var last: (sql: String, entry: Entry)?
    static let capacity = 64

    /// The compiled `sql` and its entry (nil: a copy of its own, to be finalized at check-in);
    /// nil when it holds no statement.
    func checkOut(_ sql: String, on connection: OpaquePointer) throws -> (OpaquePointer, Entry?)? {
        let entry: Entry
        if let last, last.sql == sql {
            entry = last.entry
        } else if let found = compiled[sql] {
            entry = found
        } else {
            guard let statement = try PreparedStatement.prepare(sql, on: connection) else { return nil }
            if order.count >= Self.capacity {
                for old in order.prefix(Self.capacity / 2) where compiled[old]?.inUse == false {
                    sqlite_nio_sqlite3_finalize(compiled.removeValue(forKey: old)?.statement)
                }
                order = order.filter { compiled[$0] != nil }
                if let kept = last, compiled[kept.sql] == nil { last = nil }
            }
            entry = Entry(statement)
            compiled[sql] = entry
            order.append(sql)
        }
        last = (sql, entry)
        if entry.inUse {
            return try PreparedStatement.prepare(sql, on: connection).map { ($0, nil) }
        }
        entry.inUse = true
        return (entry.statement, entry)
    }

    func checkIn(_ statement: OpaquePointer, _ entry: Entry?) {
        if let entry { entry.inUse = false } else { sqlite_nio_sqlite3_finalize(statement) }
    }

    func finalizeAll() {
        for entry in compiled.values { sqlite_nio_sqlite3_finalize(entry.statement) }
        compiled = [:]
        order = []
        last = nil
    }
}
