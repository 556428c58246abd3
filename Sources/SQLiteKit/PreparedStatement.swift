import CSQLite

/// SQLite's "copy the bytes now" destructor, a macro Swift does not import.
private let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// One SQL statement on a connection: compiled (`prepare`), then run as often as asked
/// (`step`: `values` bound to its `?`s in order, each row handed to `row`, the statement reset
/// for its next use), all on the calling thread.
enum PreparedStatement {
    /// `sql` compiled, or nil when it holds no statement (only comments or white space).
    static func prepare(_ sql: String, on connection: OpaquePointer) throws -> OpaquePointer? {
        var statement: OpaquePointer?
        var second: OpaquePointer?
        let prepared = sql.withCString { start in
            var tail: UnsafePointer<CChar>?
            let code = sqlite_nio_sqlite3_prepare_v2(connection, start, -1, &statement, &tail)
            // What follows the first statement must be nothing, or only comments and white
            // space: a second statement would be silently dropped.
            if code == SQLITE_OK, let tail, tail.pointee != 0 {
                _ = sqlite_nio_sqlite3_prepare_v2(connection, tail, -1, &second, nil)
            }
            return code
        }
        guard prepared == SQLITE_OK else { throw SQLiteError(code: prepared, connection: connection) }
        if second != nil {
            sqlite_nio_sqlite3_finalize(second)
            sqlite_nio_sqlite3_finalize(statement)
            throw SQLiteError(code: SQLITE_MISUSE, message: "more than one statement in one call")
        }
        return statement
    }

    /// Binds `values`, steps through the rows, and resets the statement for its next use.
    static func step(_ statement: OpaquePointer, _ values: [SQLValue], on connection: OpaquePointer,
                     row: (SQLRow) throws -> Void) throws {
        defer {
            sqlite_nio_sqlite3_reset(statement)
            sqlite_nio_sqlite3_clear_bindings(statement)
        }
        try bind(values, to: statement, connection: connection)
        let count = sqlite_nio_sqlite3_column_count(statement)
        var names: [String]?
        while true {
            let code = sqlite_nio_sqlite3_step(statement)
            if code == SQLITE_DONE { return }
            guard code == SQLITE_ROW else { throw SQLiteError(code: code, connection: connection) }
            let columnNames = names ?? (0..<count).map { column in
                sqlite_nio_sqlite3_column_name(statement, column).map { String(cString: $0) } ?? ""
            }
            names = columnNames
            try row(SQLRow(names: columnNames, values: (0..<count).map { value(statement, $0) }))
        }
    }

    private static func bind(_ values: [SQLValue], to statement: OpaquePointer, connection: OpaquePointer) throws {
        let parameters = Int(sqlite_nio_sqlite3_bind_parameter_count(statement))
        guard values.count <= parameters else {
            throw SQLiteError(code: SQLITE_RANGE, message: "\(values.count) values for \(parameters) parameters")
        }
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32
            switch value {
            case .integer(let number): code = sqlite_nio_sqlite3_bind_int64(statement, index, Int64(number))
            case .real(let number): code = sqlite_nio_sqlite3_bind_double(statement, index, number)
            case .text(let text):
                // By length, not to the first NUL: the text is bound whole. (`withCString` hands
                // over all of a string's bytes, NULs too, and never a null pointer, which SQLite
                // would bind as NULL for the empty text.)
                code = text.withCString {
                    sqlite_nio_sqlite3_bind_text64(statement, index, $0, UInt64(text.utf8.count), transient, UInt8(SQLITE_UTF8))
                }
            case .blob(let bytes):
                code = bytes.isEmpty ? sqlite_nio_sqlite3_bind_zeroblob(statement, index, 0)
                    : bytes.withUnsafeBytes { sqlite_nio_sqlite3_bind_blob64(statement, index, $0.baseAddress, UInt64($0.count), transient) }
            case .null: code = sqlite_nio_sqlite3_bind_null(statement, index)
            }
            guard code == SQLITE_OK else { throw SQLiteError(code: code, connection: connection) }
        }
    }

    private static func value(_ statement: OpaquePointer, _ column: Int32) -> SQLValue {
        switch sqlite_nio_sqlite3_column_type(statement, column) {
        case SQLITE_INTEGER: return .integer(Int(sqlite_nio_sqlite3_column_int64(statement, column)))
        case SQLITE_FLOAT: return .real(sqlite_nio_sqlite3_column_double(statement, column))
        case SQLITE_TEXT:
            // Text first, then its length, as SQLite's documentation orders the two calls.
            guard let text = sqlite_nio_sqlite3_column_text(statement, column) else { return .text("") }
            let length = Int(sqlite_nio_sqlite3_column_bytes(statement, column))
            return .text(String(decoding: UnsafeBufferPointer(start: text, count: length), as: UTF8.self))
        case SQLITE_BLOB:
            guard let bytes = sqlite_nio_sqlite3_column_blob(statement, column) else { return .blob([]) }
            let length = Int(sqlite_nio_sqlite3_column_bytes(statement, column))
            return .blob(Array(UnsafeRawBufferPointer(start: bytes, count: length)))
        default: return .null
        }
    }
}
