import CSQLite

/// Orders and functions of the program's own, defined on the connection for the statements
/// after them (a list ordered as the program orders it, by SQLite's sorter, which spills to
/// disk rather than holding every row). Defining a name again replaces it.
extension SQLiteStatements {
    /// `COLLATE name` orders text by `order` (negative, zero, positive), given each side's UTF-8.
    public func define(collation name: String, _ order: @escaping (UnsafeRawBufferPointer, UnsafeRawBufferPointer) -> Int32) throws {
        let box = Unmanaged.passRetained(Boxed(order)).toOpaque()
        let code = sqlite_nio_sqlite3_create_collation_v2(connection, name, SQLITE_UTF8, box, { box, leftCount, left, rightCount, right in
            let order = Unmanaged<Boxed<(UnsafeRawBufferPointer, UnsafeRawBufferPointer) -> Int32>>.fromOpaque(box!).takeUnretainedValue().value
            return order(UnsafeRawBufferPointer(start: left, count: Int(leftCount)), UnsafeRawBufferPointer(start: right, count: Int(rightCount)))
        }, { box in Unmanaged<AnyObject>.fromOpaque(box!).release() })
        guard code == SQLITE_OK else { throw SQLiteError(code: code, connection: connection) }
    }

    /// `name(argument)` is `body` of the argument, for every row (deterministic: SQLite may
    /// compute it once for equal arguments).
    public func define(function name: String, _ body: @escaping (SQLValue) -> SQLValue) throws {
        let box = Unmanaged.passRetained(Boxed(body)).toOpaque()
        let code = sqlite_nio_sqlite3_create_function_v2(connection, name, 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, box, { context, count, arguments in
            let body = Unmanaged<Boxed<(SQLValue) -> SQLValue>>.fromOpaque(sqlite_nio_sqlite3_user_data(context)!).takeUnretainedValue().value
            let argument = count > 0 ? SQLiteStatements.value(arguments![0]) : .null
            switch body(argument) {
            case .integer(let number): sqlite_nio_sqlite3_result_int64(context, Int64(number))
            case .real(let number): sqlite_nio_sqlite3_result_double(context, number)
            case .text(let text):
                var text = text
                text.withUTF8 { bytes in
                    sqlite_nio_sqlite3_result_text64(context, bytes.baseAddress, UInt64(bytes.count), unsafeBitCast(-1, to: sqlite3_destructor_type.self),
                                                     UInt8(SQLITE_UTF8))
                }
            case .blob, .null: sqlite_nio_sqlite3_result_null(context)
            }
        }, nil, nil, { box in Unmanaged<AnyObject>.fromOpaque(box!).release() })
        guard code == SQLITE_OK else { throw SQLiteError(code: code, connection: connection) }
    }

    /// An argument of a function, as a value (text and numbers; a blob is read as null).
    private static func value(_ value: OpaquePointer?) -> SQLValue {
        switch sqlite_nio_sqlite3_value_type(value) {
        case SQLITE_INTEGER: return .integer(Int(sqlite_nio_sqlite3_value_int64(value)))
        case SQLITE_FLOAT: return .real(sqlite_nio_sqlite3_value_double(value))
        case SQLITE_TEXT:
            guard let text = sqlite_nio_sqlite3_value_text(value) else { return .text("") }
            let length = Int(sqlite_nio_sqlite3_value_bytes(value))
            return .text(String(decoding: UnsafeBufferPointer(start: text, count: length), as: UTF8.self))
        default: return .null
        }
    }
}

/// A Swift closure behind a C pointer.
private final class Boxed<Value> {
    let value: Value
    init(_ value: Value) { self.value = value }
}
