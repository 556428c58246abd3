#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import SQLiteKit
import Synchronization
import ToolboxKit

/// Everything blogctl keeps of what it has read, in one SQLite file, as newsboat keeps its
/// `cache.db`: `$XDG_DATA_HOME/blogctl/library.db`, in WAL mode. Every source (a blog API
/// server or a feed) is a row of `sources`; its posts are rows of `entries`, keyed by source
/// and id and kept when they leave the source; read marks are rows of `marks`. A question
/// across sources (which feed holds this id, how many unread) is one query. Bodies stay gzip
/// files in the cache folder (`PostCache`), a copy that can be fetched again: backing up the
/// library file is backing up what a reader cannot get back.
public final class Library: Sendable {
    /// The path as the user knows it (errors name it).
    public let path: String
    /// The folder it is in, checked private, where its lock is kept (`RefreshLock`).
    let folder: String
    let file: SQLiteFile
    /// Where the files of blogctl before the library are, taken in source by source.
    let oldLayout: OldLayout

    private static let opened = Mutex<[String: Library]>([:])

    /// The user's library, opened once a process: its folder made private (0700) and checked,
    /// the file checked by the one trust rule (`FileTrust`), a damaged or foreign file refused.
    public static func standard(environment: [String: String] = Environment.current) throws(ToolError) -> Library {
        let folder = Paths(environment: environment).data(.blogctl)
        let path = folder + "/library.db"
        if let library = opened.withLock({ $0[path] }) { return library }
        try LocalFile.privateDirectory(folder)
        let home = environment["HOME"]
        if let reason = FileTrust.problem(path, limit: Int.max, home: home) {
            throw .io(path: path, reason: reason + "; refusing to use it")
        }
        let isNew = !FileTrust.exists(path)
        let oldLayout = OldLayout(environment: environment)
        let location = try FileTrust.trustedLocation(path, home: home)
        let library = try Library(location: location, shown: path, oldLayout: oldLayout)
        if isNew { oldLayout.announce(library: path) }
        return opened.withLock { known in
            if let first = known[path] { return first }
            known[path] = library
            return library
        }
    }

    /// Opens (or makes, 0600) the library at `location`, named `shown` in errors.
    init(location: String, shown: String, oldLayout: OldLayout) throws(ToolError) {
        path = shown
        folder = location.lastIndex(of: "/").map { String(location[..<$0]) } ?? "."
        self.oldLayout = oldLayout
        // Made here, private, before SQLite opens it with the umask's mode.
        let fd = open(location, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        if fd >= 0 { close(fd) }
        do {
            file = try SQLiteFile(location)
        } catch {
            throw Self.failure(error, path: shown)
        }
        do {
            try file.executeAlone("PRAGMA journal_mode = WAL")
            // SQLite's advice for WAL: a commit is safe from any crash of the program, and a
            // power cut can lose only the last commits, never the file.
            try file.executeAlone("PRAGMA synchronous = NORMAL")
            try file.transaction(.read) { db in try LibrarySchema.check(db, path: shown) }
            try LibrarySchema.migrations.apply(to: file)
        } catch let error as ToolError {
            throw error
        } catch {
            throw Self.failure(error, path: shown)
        }
    }

    /// `body` in one write transaction (SQLite's busy timeout waits for another writer).
    func write<T>(_ body: (SQLiteStatements) throws -> T) throws(ToolError) -> T {
        do { return try file.transaction(.write, body) } catch { throw Self.failure(error, path: path) }
    }

    /// `body` in one read transaction: one snapshot for all it reads.
    func read<T>(_ body: (SQLiteStatements) throws -> T) throws(ToolError) -> T {
        do { return try file.transaction(.read, body) } catch { throw Self.failure(error, path: path) }
    }

    /// `work` from async code on the library connection's own queue: a listing's transaction,
    /// which may last seconds for a big feed, holds no thread that every task shares, and a
    /// task waiting for it holds none either.
    func onQueue<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await file.perform(work)
    }

    /// Whether `value` differs from what `key` last held; it holds `value` from now on.
    public func isNew(_ value: String, for key: String) throws(ToolError) -> Bool {
        try write { db in
            guard try db.value("SELECT value FROM meta WHERE key = ?", [.text(key)])?.string != value else { return false }
            try db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", [.text(key), .text(value)])
            return true
        }
    }

    static func failure(_ error: any Error, path: String) -> ToolError {
        if let error = error as? ToolError { return error }
        guard let error = error as? SQLiteError else { return .io(path: path, reason: String(describing: error)) }
        if error.isDamage {
            return .io(path: path, reason: "damaged (\(error.message)); restore it from a backup or move it aside to start a new library")
        }
        if error.isBusy { return .io(path: path, reason: "busy: another blogctl held it for 30 seconds; try again") }
        return .io(path: path, reason: error.message)
    }
}
