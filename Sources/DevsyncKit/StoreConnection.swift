import NIOConcurrencyHelpers
import SQLiteNIO
import ToolboxKit

/// One SQLite connection (sqlite-nio), used by one transaction at a time. The store's API is
/// synchronous, as the commands that call it are: each statement runs on NIO's thread pool
/// and the caller waits for it. Transactions of this process are serialized by a lock; those
/// of other processes by SQLite's locks and a busy timeout.
final class StoreConnection: Sendable {
    private let connection: SQLiteConnection
    private let lock = NIOLock()

    /// Opens `location` (a path or a `file:` URI). SQLite opens a file it may not write
    /// read-only by itself.
    init(_ location: String) throws {
        connection = try SQLiteConnection.open(storage: .file(path: location)).wait()
        // Two devsync processes wait up to 30 s for each other's short write transactions.
        // This replaces sqlite-nio's busy handler, which retries without end or pause.
        _ = try connection.query("PRAGMA busy_timeout = 30000").wait()
    }

    func close() {
        _ = try? connection.close().wait()
    }

    enum TransactionKind: String {
        /// Takes the write lock at once, so that a read inside never has to be upgraded.
        case write = "BEGIN IMMEDIATE"
        /// One consistent snapshot for several reads.
        case read = "BEGIN DEFERRED"
    }

    /// Runs `body` in one transaction: committed when it returns, rolled back when it throws.
    func transaction<T>(_ kind: TransactionKind, _ body: (StoreStatements) throws -> T) throws -> T {
        try lock.withLock {
            let statements = StoreStatements(connection: connection)
            try statements.execute(kind.rawValue)
            do {
                let result = try body(statements)
                try statements.execute("COMMIT")
                return result
            } catch {
                try? statements.execute("ROLLBACK")
                throw error
            }
        }
    }

    /// Runs one statement outside any transaction (`PRAGMA journal_mode` must).
    func executeAlone(_ sql: String) throws {
        try lock.withLock { try StoreStatements(connection: connection).execute(sql) }
    }
}

/// The statements of one transaction.
struct StoreStatements {
    fileprivate let connection: SQLiteConnection

    func rows(_ sql: String, _ binds: [SQLiteData] = []) throws -> [SQLiteRow] {
        try connection.query(sql, binds).wait()
    }

    func execute(_ sql: String, _ binds: [SQLiteData] = []) throws {
        _ = try rows(sql, binds)
    }

    /// The first column of the first row, if any.
    func value(_ sql: String, _ binds: [SQLiteData] = []) throws -> SQLiteData? {
        try rows(sql, binds).first?.columns.first?.data
    }

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    func changes() throws -> Int {
        try value("SELECT changes()")?.integer ?? 0
    }
}

extension SQLiteData {
    /// A bind for an optional text: NULL when absent.
    static func optional(_ value: String?) -> SQLiteData { value.map { .text($0) } ?? .null }
}
