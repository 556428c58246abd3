import VaporCSQLite

/// The statements of one transaction (or of one `alone` call): valid only inside it.
public struct SQLiteStatements {
    fileprivate let connection: OpaquePointer

    init(connection: OpaquePointer) {
        self.connection = connection
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
        try PreparedStatement.run(sql, values, on: connection, row: body)
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

    /// `sql` compiled once for `body` to run many times (a thousand rows written in one
    /// transaction pay for one compilation, not a thousand); finalized when `body` returns.
    public func repeating<T>(_ sql: String, _ body: (RepeatedStatement) throws -> T) throws -> T {
        guard let statement = try PreparedStatement.prepare(sql, on: connection) else {
            throw SQLiteError(code: SQLITE_MISUSE, message: "no statement to repeat")
        }
        defer { sqlite_nio_sqlite3_finalize(statement) }
        return try body(RepeatedStatement(statement: statement, connection: connection))
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

/// One compiled statement inside `SQLiteStatements.repeating`: valid only there.
public struct RepeatedStatement {
    fileprivate let statement: OpaquePointer
    fileprivate let connection: OpaquePointer

    public func execute(_ values: [SQLValue]) throws {
        try each(values) { _ in }
    }

    public func each(_ values: [SQLValue], _ body: (SQLRow) throws -> Void) throws {
        CrashPoint.reach()
        try PreparedStatement.step(statement, values, on: connection, row: body)
    }

    public func value(_ values: [SQLValue]) throws -> SQLValue? {
        var first: SQLValue?
        try each(values) { row in if first == nil { first = row.first } }
        return first
    }
}
