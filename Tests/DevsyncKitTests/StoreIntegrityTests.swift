import FoundationEssentials
import Glibc
import Testing
@testable import DevsyncKit
import SQLiteKit
import ToolboxKit
import TestSupport

/// Issue 10: first use is atomic, concurrent first use works, half-made stores are repaired,
/// and a change that cannot be read is never sent.
@Suite struct StoreIntegrityTests {
    static func freshPath() -> String {
        TemporaryFolders.make("integrity") + "/devsync.sqlite"
    }

    static func applicationID(_ path: String) throws -> Int32 {
        Int32(try sqliteValue(path, "PRAGMA application_id") ?? 0)
    }

    @Test func anEmptyFileLeftByAnInterruptedFirstUseIsNoObstacle() throws {
        let path = Self.freshPath()
        #expect(creat(path, 0o600) >= 0)
        let store = try DeviceStore(path: path)
        try store.replaceServerCopy(seed)
        #expect(try Self.applicationID(path) == DeviceStore.applicationID)
    }

    @Test func aHalfMadeEmptyStoreIsRepairedButOneWithDataIsNot() throws {
        let path = Self.freshPath()
        // What an older devsync left when stopped between its migration and the application id.
        let half = try SQLiteFile(path)
        try StoreSchema.migrations.apply(to: half)
        half.close()
        #expect(try Self.applicationID(path) == 0)
        _ = try DeviceStore(path: path)
        #expect(try Self.applicationID(path) == DeviceStore.applicationID)

        let other = Self.freshPath()
        let full = try SQLiteFile(other)
        try StoreSchema.migrations.apply(to: full)
        try full.transaction(.write) { db in try db.execute("INSERT INTO meta (key, value) VALUES ('x', 'y')") }
        full.close()
        #expect(throws: ToolError.self) { try DeviceStore(path: other) }
    }

    @Test func concurrentFirstUsesAllSucceedOnOneStore() async throws {
        for _ in 0..<10 {
            let path = Self.freshPath()
            let results = await withTaskGroup(of: Bool.self) { group in
                for _ in 0..<6 {
                    group.addTask {
                        do {
                            let store = try DeviceStore(path: path)
                            _ = try store.devices()
                            return true
                        } catch { return false }
                    }
                }
                return await group.reduce(into: [Bool]()) { $0.append($1) }
            }
            #expect(results.allSatisfy { $0 }, "\(results)")
            #expect(try Self.applicationID(path) == DeviceStore.applicationID)
            let folder = String(path[..<path.lastIndex(of: "/")!])
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.contains(".tmp.") }
            #expect(leftovers.isEmpty, "\(leftovers)")
        }
    }

    @Test func aChangeThatCannotBeReadIsNeverSent() throws {
        let store = try temporaryStore()
        try store.replaceServerCopy(seed)
        try store.record("CWM-0012-62", installationDate: Date(timeIntervalSince1970: 1_700_000_000))
        try store.record("HEA-8127-29", installationDate: nil)
        sqlite(store.path, "UPDATE change SET installationDate = 'garbage' WHERE deviceID = 'CWM-0012-62'")
        let (claims, _, damaged) = try store.queue.claim(token: "t")
        #expect(damaged == ["CWM-0012-62"])
        #expect(claims.map(\.deviceID) == ["HEA-8127-29"])
        // Kept for the user to fix or discard.
        #expect(try store.pending().map(\.id).contains("CWM-0012-62"))
    }

    /// Issue 37: a damaged change read as blank was shown as "not installed" and exported as
    /// a blank cell, which an import then recorded (and a sync sent) as null.
    @Test func aDamagedChangeIsShownAndExportedAsDamaged() throws {
        let store = try temporaryStore()
        try store.replaceServerCopy(seed)
        try store.record("CWM-0012-62", installationDate: Date(timeIntervalSince1970: 1_700_000_000))
        sqlite(store.path, "UPDATE change SET installationDate = 'garbage' WHERE deviceID = 'CWM-0012-62'")
        let device = try #require(try store.pending().first { $0.id == "CWM-0012-62" })
        #expect(device.isDamaged && device.syncState == .damaged)
        #expect(device.installedField(.tsv) == "damaged" && device.installedField(.table) == "damaged")
        let exported = DeviceExport.fields(device)
        #expect(exported[1] == "damaged" && exported[2] == "damaged")
        // A colleague's import of that export refuses the row instead of recording null.
        let csv = DeviceExport.header.joined(separator: ",") + "\n" + exported.joined(separator: ",") + "\n"
        guard case .failure(let problems) = DeviceImport.check(csv, knownIDs: ["CWM-0012-62"]) else {
            Issue.record("an export of a damaged date was imported")
            return
        }
        #expect(problems.all.map(\.line) == [2])
        let healthy = try #require(try store.devices().first { $0.id == "HEA-8127-29" })
        #expect(!healthy.isDamaged && healthy.syncState == .synced)
    }

    /// Issue 29: damage that is not text (a BLOB, a number) was read as "not installed" and
    /// sent as null, then dropped as synced.
    @Test func aDateStoredAsABlobOrANumberIsDamageNotNull() throws {
        for damage in ["X'323032342D31302D3031'", "42", "4.5"] {
            let store = try temporaryStore()
            try store.replaceServerCopy(seed)
            try store.record("CWM-0012-62", installationDate: Date(timeIntervalSince1970: 1_700_000_000))
            sqlite(store.path, "UPDATE change SET installationDate = \(damage) WHERE deviceID = 'CWM-0012-62'")
            let planned = try store.queue.planned()
            #expect(planned.damaged == ["CWM-0012-62"] && planned.changes.isEmpty, "\(damage)")
            let (claims, _, damaged) = try store.queue.claim(token: "t")
            #expect(damaged == ["CWM-0012-62"] && claims.isEmpty, "\(damage)")
        }
    }
}

/// Issue 11: changes recorded in the same second are listed in the order they were recorded.
@Suite struct PendingOrderTests {
    @Test func sameSecondChangesKeepTheirRecordedOrder() throws {
        let store = try temporaryStore()
        try store.replaceServerCopy(seed)
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        for id in ["WWM-0001-12", "CWM-0012-62", "HEA-8127-29", "CWM-0012-62"] {
            try store.record(id, installationDate: now, at: now)
        }
        #expect(try store.pending().map(\.id) == ["WWM-0001-12", "HEA-8127-29", "CWM-0012-62"])
        #expect(try store.pending().last?.change?.revision == 2)
    }
}

/// Issue 29: the default store folder is checked as blogctl's cache is, and the store is 0600.
@Suite struct StoreFolderTests {
    @Test func aWorldWritableOrSymlinkedDefaultFolderIsRefused() throws {
        let home = TemporaryFolders.make("xdg")
        let environment = ["XDG_DATA_HOME": home, "HOME": home]
        // Made 0700 when missing, and the store in it 0600.
        let path = try StoreLocation.prepared(flag: nil, environment: environment)
        var info = stat()
        #expect(stat(home + "/devsync", &info) == 0 && info.st_mode & 0o777 == 0o700)
        _ = try DeviceStore(path: path)
        #expect(stat(path, &info) == 0 && info.st_mode & 0o777 == 0o600)

        chmod(home + "/devsync", 0o777)
        #expect(throws: ToolError.self) { try StoreLocation.prepared(flag: nil, environment: environment) }
        chmod(home + "/devsync", 0o700)

        let other = TemporaryFolders.make("elsewhere")
        let linked = TemporaryFolders.make("xdg-linked")
        symlink(other, linked + "/devsync")
        do {
            _ = try StoreLocation.prepared(flag: nil, environment: ["XDG_DATA_HOME": linked, "HOME": linked])
            Issue.record("a symlinked store folder was used")
        } catch {
            #expect(error.exitStatus == .ioError && error.message.contains("symlink"), "\(error.message)")
        }
        // A path the user names is theirs to place.
        #expect(try StoreLocation.prepared(flag: other + "/mine.sqlite", environment: environment) == other + "/mine.sqlite")
    }
}

/// Issue 37: a value starting with a byte order mark survives export and import.
@Suite struct CSVByteOrderMarkTests {
    @Test func aLeadingBOMIsKept() throws {
        let fields = ["\u{FEFF}id", "x"]
        let records = try CSV.parse(CSV.format(fields) + "\r\n")
        #expect(records.first?.fields == fields)
        #expect(try CSV.parse("\u{FEFF}a,b\n").first?.fields == ["a", "b"])
    }
}
