import Glibc
import Testing
import SQLiteKit
import TestSupport

/// SQLiteKit is the toolbox's one door to SQLite: what goes in comes out byte for byte, what
/// SQLite refuses comes back as a typed error, and nothing is silently dropped.
@Suite struct SQLiteFileTests {
    static func fresh() throws -> (SQLiteFile, String) {
        let path = TemporaryFolders.make("sqlitekit") + "/test.sqlite"
        return (try SQLiteFile(path), path)
    }

    @Test func everyValueComesBackAsItWasBound() throws {
        let (file, _) = try Self.fresh()
        let values: [SQLValue] = [.integer(Int.min), .integer(Int.max), .real(-0.5), .text(""), .text("a\u{0}b"),
                                  .text("東京 🎉\u{301}"), .blob([]), .blob([0, 255, 0]), .null]
        let row = try file.alone { db in
            _ = try db.value("SELECT 1")  // a statement before, to show nothing carries over
            return try db.rows("SELECT " + Array(repeating: "?", count: values.count).joined(separator: ", "), values)
        }
        #expect(row.count == 1)
        #expect(row[0].values == values)
    }

    @Test func columnsAreFoundByName() throws {
        let (file, _) = try Self.fresh()
        let row = try file.alone { try $0.rows("SELECT 1 AS one, 'x' AS two").first }
        #expect(row?.column("two") == .text("x"))
        #expect(row?.column("one")?.integer == 1)
        #expect(row?.column("three") == nil)
    }

    @Test func aSecondStatementIsRefusedNotDropped() throws {
        let (file, _) = try Self.fresh()
        try file.executeAlone("CREATE TABLE t (x);  -- a comment after is fine\n")
        #expect(throws: SQLiteError.self) { try file.executeAlone("INSERT INTO t VALUES (1); DROP TABLE t") }
        #expect(try file.alone { try $0.value("SELECT count(*) FROM t") } == .integer(0))
    }

    @Test func moreValuesThanParametersAreRefused() throws {
        let (file, _) = try Self.fresh()
        #expect(throws: SQLiteError.self) { try file.alone { try $0.execute("SELECT ?", [.integer(1), .integer(2)]) } }
    }

    @Test func aTransactionThatThrowsLeavesNothing() throws {
        let (file, _) = try Self.fresh()
        try file.executeAlone("CREATE TABLE t (x)")
        struct Stop: Error {}
        #expect(throws: Stop.self) {
            try file.transaction(.write) { db in
                try db.execute("INSERT INTO t VALUES (1)")
                #expect(db.changes() == 1)
                throw Stop()
            }
        }
        #expect(try file.alone { try $0.value("SELECT count(*) FROM t") } == .integer(0))
    }

    @Test func aFileThatIsNotADatabaseIsDamage() throws {
        let path = TemporaryFolders.make("sqlitekit") + "/garbage.sqlite"
        let fd = creat(path, 0o600)
        _ = write(fd, String(repeating: "not a database ", count: 100), 1500)
        close(fd)
        let file = try SQLiteFile(path)
        do {
            _ = try file.alone { try $0.value("SELECT count(*) FROM sqlite_master") }
            Issue.record("read a file that is not a database")
        } catch let error as SQLiteError {
            #expect(error.isDamage)
            #expect(error.message.contains("not a database"))
        }
    }

    @Test func aWriteLockHeldPastTheTimeoutIsBusy() throws {
        let (file, path) = try Self.fresh()
        try file.executeAlone("CREATE TABLE t (x)")
        let other = try SQLiteFile(path, busyTimeout: 0)
        try file.transaction(.write) { _ in
            do {
                try other.transaction(.write) { try $0.execute("INSERT INTO t VALUES (1)") }
                Issue.record("two write transactions at once")
            } catch let error as SQLiteError {
                #expect(error.isBusy)
            }
        }
    }

    @Test func migrationsApplyOnceAndANewerFileIsNamed() throws {
        let (file, _) = try Self.fresh()
        let first = SQLiteMigrations([("v1", ["CREATE TABLE t (x)"])])
        try first.apply(to: file)
        try first.apply(to: file)  // again: nothing to do, no "table t already exists"
        let newer = SQLiteMigrations([("v1", ["CREATE TABLE t (x)"]), ("v2", ["ALTER TABLE t ADD COLUMN y"])])
        try newer.apply(to: file)
        #expect(try file.alone { try first.unknown(in: $0) } == ["v2"])
        #expect(try file.alone { try newer.unknown(in: $0) } == [])
    }

    @Test func performRunsOneJobAtATimeOffTheCallersTask() async throws {
        let (file, _) = try Self.fresh()
        try file.executeAlone("CREATE TABLE t (x)")
        await withTaskGroup(of: Void.self) { group in
            for n in 0..<50 {
                group.addTask {
                    _ = await file.perform { try? file.transaction(.write) { try $0.execute("INSERT INTO t VALUES (?)", [.integer(n)]) } }
                }
            }
        }
        #expect(try file.alone { try $0.value("SELECT count(DISTINCT x) FROM t") } == .integer(50))
    }
}
