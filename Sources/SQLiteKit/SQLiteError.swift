import CSQLite

/// An error SQLite reported: its extended result code and its message, as `sqlite3_errmsg`
/// says it ("database disk image is malformed").
public struct SQLiteError: Error, Sendable, CustomStringConvertible {
    /// SQLite's extended result code (`SQLITE_CORRUPT_INDEX`, `SQLITE_BUSY_SNAPSHOT`, …).
    public let code: Int32
    public let message: String

    /// The primary result code, without the extended detail.
    public var primaryCode: Int32 { code & 0xff }

    /// SQLite found the file damaged, or not a database at all: it is not to be trusted.
    public var isDamage: Bool { primaryCode == SQLITE_CORRUPT || primaryCode == SQLITE_NOTADB }

    /// Another connection held a lock past the busy timeout.
    public var isBusy: Bool { primaryCode == SQLITE_BUSY || primaryCode == SQLITE_LOCKED }

    public var description: String { message }

    init(code: Int32, message: String) {
        self.code = code
        self.message = message
    }

    /// The connection's last error.
    init(code: Int32, connection: OpaquePointer?) {
        let text = connection.flatMap { sqlite_nio_sqlite3_errmsg($0) }.map { String(cString: $0) }
        self.init(code: code, message: text ?? String(cString: sqlite_nio_sqlite3_errstr(code)))
    }
}
