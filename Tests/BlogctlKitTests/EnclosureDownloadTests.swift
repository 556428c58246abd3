import FoundationEssentials
import Testing
import TestSupport
import ToolboxKit
@testable import BlogctlKit
#if canImport(Glibc)
import Glibc
#endif
@testable import BlogctlEngines

/// Issue 65: an entry's files fetched as podboat fetches them: named safely in their folder,
/// queued so that a quit loses nothing, resumed from their part with a `Range` request.
@Suite struct EnclosureDownloadTests {
    typealias Home = LibraryTests.Home

    /// Names from hostile URLs never leave the folder, never hide, hold no control, fit.
    @Test func aNameStaysInItsFolder() {
        let cases: [(String, String)] = [
            ("https://c.example/ep/1.mp3?x=1#t", "1.mp3"),
            ("https://c.example/ep/My%20Show%20%231.mp3", "My Show #1.mp3"),
            ("https://c.example/a/..", "enclosure"),
            ("https://c.example/a/%2E%2E", "enclosure"),
            ("https://c.example/a/..%2F..%2Fetc%2Fpasswd", "etcpasswd"),
            ("https://c.example/a/.bashrc", "bashrc"),
            ("https://c.example/", "enclosure"),
            ("https://c.example", "enclosure"),
            ("https://c.example/a/%1B%5B31mred%07.mp3", "[31mred.mp3"),
            ("https://c.example/a/b%5Cc.ogg", "bc.ogg"),
            ("https://c.example/a/%00x", "x"),
        ]
        for (url, name) in cases { #expect(EnclosureName.name(for: url) == name, "\(url)") }
        let long = EnclosureName.name(for: "https://c.example/" + String(repeating: "é", count: 300) + ".mp3")
        #expect(long.utf8.count <= 240 && long.hasSuffix(".mp3") && !long.contains("\u{FFFD}"), "\(long.utf8.count)")
        #expect(EnclosureName.numbered("ep.mp3", 2) == "ep (2).mp3" && EnclosureName.numbered("ep", 3) == "ep (3)")
        #expect(EnclosureName.numbered(".x", 2) == ".x (2)")
    }

    @Test func theFolderIsTheUsersDownloadFolder() {
        let home = Home()
        #expect(DownloadFolder.resolve("/tmp/x", environment: home.environment) == "/tmp/x")
        #expect(DownloadFolder.resolve("~/Podcasts", environment: home.environment) == home.root + "/Podcasts")
        #expect(DownloadFolder.resolve(nil, environment: home.environment.merging(["XDG_DOWNLOAD_DIR": "/srv/dl"]) { $1 }) == "/srv/dl")
        #expect(DownloadFolder.resolve(nil, environment: home.environment) == home.root + "/Downloads")
        #expect(DownloadFolder.userDirsDownload("# comment\nXDG_DOWNLOAD_DIR=\"$HOME/Téléchargements\"\n", home: "/h") == "/h/Téléchargements")
        #expect(DownloadFolder.userDirsDownload("XDG_DOWNLOAD_DIR=\"relative\"\n", home: "/h") == nil)
    }

    /// A file keeps the path it was queued with; a name taken by another download or by a
    /// file in the folder is numbered; one done whose file is gone is queued again.
    @Test func theQueueKeepsPathsAndSurvivesARun() throws {
        let home = Home()
        let folder = TemporaryFolders.make("downloads")
        let library = try home.library()
        FileManagerless.touch(folder + "/ep.mp3")
        let first = try library.downloads.add([(url: "https://a.example/1/ep.mp3", entry: "e1", title: "One"),
                                       (url: "https://b.example/2/ep.mp3", entry: "e2", title: "Two")], into: folder)
        #expect(first.map(\.path) == [folder + "/ep (2).mp3", folder + "/ep (3).mp3"])
        let again = try library.downloads.add([(url: "https://a.example/1/ep.mp3", entry: "e1", title: "One")], into: "/elsewhere")
        #expect(again.map(\.path) == [folder + "/ep (2).mp3"])
        // A new connection (a later run) sees the queue.
        #expect(try home.library().downloads.pending().map(\.url) == ["https://a.example/1/ep.mp3", "https://b.example/2/ep.mp3"])
        try library.downloads.ended("https://a.example/1/ep.mp3", error: nil)
        try library.downloads.ended("https://b.example/2/ep.mp3", error: "HTTP 500")
        let pending = try library.downloads.pending()
        #expect(pending.map(\.url) == ["https://b.example/2/ep.mp3"] && pending.first?.error == "HTTP 500")
        // Done, and its file gone (never written here): queued again at the same path.
        #expect(try library.downloads.add([(url: "https://a.example/1/ep.mp3", entry: "e1", title: "One")], into: folder).map(\.path) == [folder + "/ep (2).mp3"])
        FileManagerless.touch(folder + "/ep (2).mp3")
        try library.downloads.ended("https://a.example/1/ep.mp3", error: nil)
        #expect(try library.downloads.add([(url: "https://a.example/1/ep.mp3", entry: "e1", title: "One")], into: folder).isEmpty, "done and there")
    }

    static let body = Array((0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })

    func download(_ server: StubServer, _ file: QueuedDownload, maxBytes: Int64 = 1 << 30) async throws -> Int64 {
        try await APIClient.using(server: try ServerURL(server.url), timeout: 3_600, retries: 0) { api in
            try await EnclosureDownload.fetch(file, api: api, maxBytes: maxBytes) { _, _ in }
        }
    }

    func file(_ folder: String, _ server: StubServer) -> QueuedDownload {
        QueuedDownload(url: server.url + "/ep.mp3", path: folder + "/ep.mp3", entry: "e", title: "t")
    }

    func answer(_ status: String, _ headers: [String], _ body: ArraySlice<UInt8>) -> [UInt8] {
        Array(("HTTP/1.1 \(status)\r\n" + (headers + ["Content-Length: \(body.count)", "Connection: close"]).map { $0 + "\r\n" }.joined() + "\r\n").utf8) + body
    }

    @Test func aFileIsFetchedWholeAndRenamed() async throws {
        let folder = TemporaryFolders.make("downloads")
        let server = try StubServer(bytes: answer("200 OK", ["Content-Type: audio/mpeg"], Self.body[...]))
        defer { server.stop() }
        let file = file(folder, server)
        #expect(try await download(server, file) == Int64(Self.body.count))
        #expect(try LocalFile.read(file.path, limit: 1 << 20) == Self.body)
        #expect(!EnclosureName.taken(file.partPath))
        #expect(server.requests.first.map { !$0.lowercased().contains("range:") } == true)
    }

    /// A part is resumed from its size; a server that ignores the range sends it all, and the
    /// file is written from its start; a range that starts elsewhere is refused.
    @Test func aPartIsResumedWithARange() async throws {
        let folder = TemporaryFolders.make("downloads")
        let half = 40_000
        let resumed = try StubServer(bytes: answer("206 Partial Content", ["Content-Range: bytes \(half)-\(Self.body.count - 1)/\(Self.body.count)"],
                                                   Self.body[half...]))
        defer { resumed.stop() }
        let file = file(folder, resumed)
        try LocalFile.writeAtomically(file.partPath, Array(Self.body[..<half]))
        _ = try await download(resumed, file)
        #expect(try LocalFile.read(file.path, limit: 1 << 20) == Self.body)
        #expect(resumed.requests.first?.contains("Range: bytes=\(half)-") == true, "\(resumed.requests)")

        let whole = try StubServer(bytes: answer("200 OK", [], Self.body[...]))
        defer { whole.stop() }
        let other = QueuedDownload(url: whole.url + "/ep.mp3", path: folder + "/whole.mp3", entry: "e", title: "t")
        try LocalFile.writeAtomically(other.partPath, Array(repeating: 0xEE, count: 5000))
        _ = try await download(whole, other)
        #expect(try LocalFile.read(other.path, limit: 1 << 20) == Self.body)

        let elsewhere = try StubServer(bytes: answer("206 Partial Content", ["Content-Range: bytes 0-99/100000"], Self.body[..<100]))
        defer { elsewhere.stop() }
        let third = QueuedDownload(url: elsewhere.url + "/ep.mp3", path: folder + "/third.mp3", entry: "e", title: "t")
        try LocalFile.writeAtomically(third.partPath, Array(Self.body[..<half]))
        await #expect(throws: ToolError.self) { _ = try await download(elsewhere, third) }
        #expect(!EnclosureName.taken(third.path))
    }

    /// 416 to a part that is the whole file: it is whole. A file over the cap is refused and
    /// not renamed into place; a part that is a symbolic link is never written through.
    @Test func edgesOfTheFile() async throws {
        let folder = TemporaryFolders.make("downloads")
        let done = try StubServer(bytes: answer("416 Range Not Satisfiable", ["Content-Range: bytes */\(Self.body.count)"], []))
        defer { done.stop() }
        let file = file(folder, done)
        try LocalFile.writeAtomically(file.partPath, Self.body)
        _ = try await download(done, file)
        #expect(try LocalFile.read(file.path, limit: 1 << 20) == Self.body)

        let big = try StubServer(bytes: answer("200 OK", [], Self.body[...]))
        defer { big.stop() }
        let capped = QueuedDownload(url: big.url + "/ep.mp3", path: folder + "/big.mp3", entry: "e", title: "t")
        await #expect(throws: ToolError.self) { _ = try await download(big, capped, maxBytes: 1000) }
        #expect(!EnclosureName.taken(capped.path))

        // The cap is the file's, whichever way its bytes come: a part and its rest over it is
        // refused; a part and a server that sends the whole file under it is fine.
        let rest = try StubServer(bytes: answer("206 Partial Content", ["Content-Range: bytes 40000-99999/100000"], Self.body[40_000...]))
        defer { rest.stop() }
        let over = QueuedDownload(url: rest.url + "/ep.mp3", path: folder + "/over.mp3", entry: "e", title: "t")
        try LocalFile.writeAtomically(over.partPath, Array(Self.body[..<40_000]))
        await #expect(throws: ToolError.self) { _ = try await download(rest, over, maxBytes: 90_000) }
        #expect(!EnclosureName.taken(over.path))
        let resent = QueuedDownload(url: big.url + "/ep.mp3", path: folder + "/resent.mp3", entry: "e", title: "t")
        try LocalFile.writeAtomically(resent.partPath, Array(Self.body[..<40_000]))
        _ = try await download(big, resent, maxBytes: 100_000)
        #expect(try LocalFile.read(resent.path, limit: 1 << 20) == Self.body)

        let target = folder + "/target"
        try LocalFile.writeAtomically(target, Array("keep".utf8))
        let linked = QueuedDownload(url: big.url + "/ep.mp3", path: folder + "/linked.mp3", entry: "e", title: "t")
        #expect(symlink(target, linked.partPath) == 0)
        await #expect(throws: ToolError.self) { _ = try await download(big, linked) }
        #expect(try LocalFile.read(target, limit: 100) == Array("keep".utf8))
    }
}

/// A file made empty, for a name the tests want taken.
enum FileManagerless {
    static func touch(_ path: String) {
        let fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
        if fd >= 0 { close(fd) }
    }
}
