import Dispatch
import CSQLite

/// One connection to one SQLite file: the toolbox's one door to SQLite (CSQLite, vendor/sqlite: the copy sqlite-nio
/// vendors, FTS5 built in), for devsync's store and blogctl's search index. Every call runs
/// on the calling thread, one at a time (a lock), with no thread pool or event loop to start:
/// opening a store costs what SQLite's own open costs. `perform` moves work off an async
/// task onto the connection's own serial queue. Transactions of other processes are kept
/// apart by SQLite's locks and a busy timeout.
public final class SQLiteFile: @unchecked Sendable {
    /// Used only under `lock`.
    private let handle: OpaquePointer
    private var isClosed = false
    private let lock = SerialLock()
    /// Compiled statements kept for the next call with the same SQL; used only under `lock`.
    private let statements = StatementCache()
    private let queue = DispatchQueue(label: "toolbox.sqlite")

    private static let initialized: Void = { _ = sqlite_nio_sqlite3_initialize() }()

    /// Opens `location` (a path or a `file:` URI), waiting up to `busyTimeout` milliseconds for
    /// another process's write transaction. SQLite opens a file it may not write read-only by
    /// itself. A file that is not a database is found at the first statement.
    public init(_ location: String, busyTimeout: Int = 30_000) throws(SQLiteError) {
        Self.initialized
        var opened: OpaquePointer?
        let flags = SQLITE_OPEN_CREATE | SQLITE_OPEN_READWRITE | SQLITE_OPEN_URI | SQLITE_OPEN_EXRESCODE
            | SQLITE_OPEN_NOMUTEX  // `lock` serializes this connection's calls.
        let code = sqlite_nio_sqlite3_open_v2(location, &opened, flags, nil)
        guard code == SQLITE_OK, let opened else {
            let error = SQLiteError(code: code, connection: opened)
            sqlite_nio_sqlite3_close_v2(opened)
            throw error
        }
        handle = opened
        sqlite_nio_sqlite3_busy_timeout(handle, Int32(clamping: busyTimeout))
    }

    deinit { close() }

    /// A `file:` URI that opens `path` read-only (`immutable`: as a file nothing changes while
    /// it is read, so SQLite needs no lock and no shared memory beside it). The URI's own
    /// characters are escaped by scalars: `%` followed by a combining mark is still a `%`.
    public static func readOnlyURI(_ path: String, immutable: Bool = false) -> String {
        var escaped = String.UnicodeScalarView()
        for scalar in path.unicodeScalars {
            switch scalar {
            case "%": escaped.append(contentsOf: "%25".unicodeScalars)
            case "?": escaped.append(contentsOf: "%3F".unicodeScalars)
            case "#": escaped.append(contentsOf: "%23".unicodeScalars)
            default: escaped.append(scalar)
            }
        }
        return "file:" + String(escaped) + (immutable ? "?immutable=1" : "?mode=ro")
    }

    /// Closes the connection; the last one to close folds a WAL journal back into the file.
    public func close() {
        lock.withLock {
            guard !isClosed else { return }
            isClosed = true
            statements.finalizeAll()
            sqlite_nio_sqlite3_close_v2(handle)
        }
    }

    public enum TransactionKind: String, Sendable {
        /// Takes the write lock at once, so that a read inside never has to be upgraded.
        case write = "BEGIN IMMEDIATE"
        /// One consistent snapshot for several reads.
        case read = "BEGIN DEFERRED"
    }

    /// Runs `body` in one transaction: committed when it returns, rolled back when it throws.
    public func transaction<T>(_ kind: TransactionKind, _ body: (SQLiteStatements) throws -> T) throws -> T {
        try alone { statements in
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
        try lock.withLock {
            guard !isClosed else { throw SQLiteError(code: SQLITE_MISUSE, message: "the database is closed") }
            return try body(SQLiteStatements(connection: handle, cache: statements))
        }
    }

    /// Runs one statement outside any transaction.
    public func executeAlone(_ sql: String) throws {
        try alone { try $0.execute(sql) }
    }

    /// `work` from async code, on this connection's own serial queue, so that no task holds one
    /// of the few threads all tasks share while SQLite waits for the disk or another process.
    public func perform<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: work()) }
        }
    }
}
