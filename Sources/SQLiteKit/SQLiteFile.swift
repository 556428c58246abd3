#if canImport(Glibc)
import Glibc
#endif
import NIOConcurrencyHelpers
import SQLiteNIO
import Synchronization

/// One connection to one SQLite file, through sqlite-nio (SQLite built in, FTS5 enabled): the
/// toolbox's one SQLite, for devsync's store and blogctl's search index. The API is
/// synchronous, as the commands that call it are: each statement runs on NIO's thread pool
/// and the caller waits for it. Transactions of this process are serialized by a lock; those
/// of other processes by SQLite's locks and a busy timeout.
public final class SQLiteFile: Sendable {
    private let connection: SQLiteConnection
    private let lock = NIOLock()

    /// Opens `location` (a path or a `file:` URI), waiting up to `busyTimeout` milliseconds for
    /// another process's write transaction. SQLite opens a file it may not write read-only by
    /// itself.
    public init(_ location: String, busyTimeout: Int = 30_000) throws {
        connection = try SQLiteConnection.open(storage: .file(path: location)).wait()
        // This replaces sqlite-nio's busy handler, which retries without end or pause.
        do {
            _ = try connection.query("PRAGMA busy_timeout = \(busyTimeout)").wait()
        } catch {
            // Not a database at all: SQLite says so only at the first statement.
            _ = try? connection.close().wait()
            throw error
        }
    }

    public func close() {
        _ = try? connection.close().wait()
    }

    public enum TransactionKind: String, Sendable {
        /// Takes the write lock at once, so that a read inside never has to be upgraded.
        case write = "BEGIN IMMEDIATE"
        /// One consistent snapshot for several reads.
        case read = "BEGIN DEFERRED"
    }

    /// Runs `body` in one transaction: committed when it returns, rolled back when it throws.
    public func transaction<T>(_ kind: TransactionKind, _ body: (SQLiteStatements) throws -> T) throws -> T {
        try lock.withLock {
            let statements = SQLiteStatements(connection: connection)
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

    /// Runs statements outside any transaction (`PRAGMA journal_mode` must; so do reads that
    /// need no snapshot).
    public func alone<T>(_ body: (SQLiteStatements) throws -> T) throws -> T {
        try lock.withLock { try body(SQLiteStatements(connection: connection)) }
    }

    /// Runs one statement outside any transaction.
    public func executeAlone(_ sql: String) throws {
        try alone { try $0.execute(sql) }
    }
}

/// The statements of one transaction.
public struct SQLiteStatements {
    fileprivate let connection: SQLiteConnection

    public func rows(_ sql: String, _ binds: [SQLiteData] = []) throws -> [SQLiteRow] {
        CrashPoint.reach()
        return try connection.query(sql, binds).wait()
    }

    /// Each row as SQLite steps to it, none kept: 100,000 rows read without holding them all
    /// (the array `rows` returns held 100,000 rows' values at once beside what was made of them).
    /// (Escaping: sqlite-nio keeps the closure a while after the last row.)
    public func each(_ sql: String, _ binds: [SQLiteData] = [], _ body: @escaping (SQLiteRow) -> Void) throws {
        CrashPoint.reach()
        // sqlite-nio calls it on its thread while this one waits: never two calls at once.
        nonisolated(unsafe) let body = body
        try connection.query(sql, binds) { row in body(row) }.wait()
    }

    public func execute(_ sql: String, _ binds: [SQLiteData] = []) throws {
        _ = try rows(sql, binds)
    }

    /// The first column of the first row, if any.
    public func value(_ sql: String, _ binds: [SQLiteData] = []) throws -> SQLiteData? {
        try rows(sql, binds).first?.columns.first?.data
    }

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    public func changes() throws -> Int {
        try value("SELECT changes()")?.integer ?? 0
    }

    /// Rows changed through this connection since it was opened.
    public func totalChanges() throws -> Int {
        try value("SELECT total_changes()")?.integer ?? 0
    }
}

extension SQLiteData {
    /// A bind for an optional text: NULL when absent.
    public static func optional(_ value: String?) -> SQLiteData { value.map { .text($0) } ?? .null }
}

/// For crash tests only: with `TOOLBOX_TEST_KILL_AT_STATEMENT=N` in its environment, a process
/// kills itself with SIGKILL just before its Nth SQLite statement (counted over every
/// connection, from 1). A test that runs a command once for every N sees it die at every
/// statement of its transactions, which a kill at a random moment cannot promise. Unset, the
/// cost is one comparison per statement.
enum CrashPoint {
    static let statement: Int = {
        guard let value = getenv("TOOLBOX_TEST_KILL_AT_STATEMENT") else { return 0 }
        return Int(String(cString: value)) ?? 0
    }()
    static let count = Atomic<Int>(0)

    static func reach() {
        guard statement > 0 else { return }
        if count.add(1, ordering: .relaxed).newValue == statement { kill(getpid(), SIGKILL) }
    }
}
