import FoundationEssentials
import Glibc
import Testing
@testable import DevsyncKit
import ToolboxKit
import TestSupport

/// Issue 16: a store written by release 0.1.0 (built on GRDB) opens in this one with its
/// devices, pending and rejected changes and sync times intact.
@Suite struct StoreFixtureTests {
    static let fixture = String(#filePath[..<#filePath.lastIndex(of: "/")!]) + "/Fixtures/store-0.1.0.sqlite"

    /// A copy of the fixture, so that opening it (which may write) leaves the committed file alone.
    static func copyOfFixture() throws -> String {
        let folder = TemporaryFolders.make("fixture")
        let path = folder + "/devsync.sqlite"
        try LocalFile.writeAtomically(path, try LocalFile.read(fixture, limit: 1 << 20))
        return path
    }

    @Test func aStoreOfRelease010OpensWithEverythingInIt() throws {
        let path = try Self.copyOfFixture()
        let store = try DeviceStore(path: path)
        let devices = try store.devices()
        #expect(devices.count == 88)
        #expect(devices.first?.id == "CWM-0012-62")

        let pending = try store.pending()
        #expect(pending.map(\.id) == ["CWM-2214-65", "CWM-2458-97", "CWM-0012-62"])
        let first = try #require(pending.first?.change)
        #expect(first.state == .pending)
        #expect(first.attempts == 2)
        #expect(first.installationDate == (try DateInput.parse("2024-06-02T08:30:00Z")))
        #expect(first.lastError?.hasSuffix("answered HTTP 503: Service Unavailable") == true)
        let rejected = try #require(pending.last?.change)
        #expect(rejected.state == .rejected)
        #expect(rejected.installationDate == nil)
        #expect(rejected.lastError == "Bad Request: the meter is sealed")

        let status = try StoreStatus(of: store)
        #expect(status.devices == 88)
        #expect(status.installed == 31)
        #expect(status.pending == 2)
        #expect(status.rejected == 1)
        #expect(status.lastSync == (try DateInput.parse("2026-11-22T21:51:51Z")))
        #expect(status.lastPull == (try DateInput.parse("2026-11-22T21:51:53Z")))

        // And it goes on working: a new change is recorded and claimed beside the old ones.
        try store.record("CWM-1244-65", installationDate: nil)
        let (claims, _, damaged) = try store.queue.claim(token: "t")
        #expect(damaged.isEmpty)
        #expect(claims.map(\.deviceID) == ["CWM-2214-65", "CWM-2458-97", "CWM-1244-65"])
    }
}
