import Foundation
import Testing
import ToolboxKit
@testable import BlogctlKit
import TestSupport
@testable import BlogctlEngines

@Suite struct PostCacheTests {
    /// A cache in a fresh temporary folder.
    final class TemporaryCache {
        let root: String
        var cache: PostCache
        init(capacity: Int = PostCache.defaultCapacity) {
            root = TemporaryFolders.make("blogctl-cache")
            // Its listing and marks in a library of its own folder.
            cache = PostCache(directory: root + "/posts", capacity: capacity,
                              owner: .init(server: try! ServerURL("http://127.0.0.1:9"),
                                           environment: ["HOME": root, "XDG_DATA_HOME": root + "/data"]))
        }
        deinit { TemporaryFolders.removeTree(root) }
    }

    static func metadata(_ id: String) -> PostMetadata { Fixtures.post(id, "Title \(id)", "2018-08-01T00:00:00Z", "Ada") }
    static func body(_ size: Int, seed: UInt64 = 1) -> [UInt8] {
        var generator = SeededGenerator(seed: seed)
        return (0..<size).map { _ in UInt8(ascii: "a") + UInt8(generator.next() % 26) }
    }

    /// Random bytes, which do not compress: their size on disk is known.
    static func noise(_ size: Int, seed: UInt64) -> [UInt8] {
        var generator = SeededGenerator(seed: seed)
        return (0..<size).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
    }

    /// Sets the "last used" time of an entry, for eviction order.
    static func setLastUsed(_ cache: PostCache, _ id: String, _ seconds: Int) {
        var times = [timespec(tv_sec: seconds, tv_nsec: 0), timespec(tv_sec: seconds, tv_nsec: 0)]
        utimensat(AT_FDCWD, cache.directory + "/" + id + ".json", &times, 0)
    }

    /// Issue 64: reads follow the rule writes follow. A cache folder others may write (770, or
    /// reached through a folder or link another user controls) is not read: a body and a
    /// sidecar planted there would be shown as the server's.
    @Test func aCacheFolderOthersMayWriteIsNotRead() throws {
        let temporary = TemporaryCache()
        let cache = temporary.cache
        try cache.store(Self.metadata("1"), body: Array("<p>mine</p>".utf8), etag: nil)
        let entry = try #require(cache.entry("1"))
        #expect(cache.body("1", entry: entry) != nil && cache.entries().count == 1)
        chmod(cache.directory, 0o770)
        #expect(cache.entry("1") == nil)
        #expect(cache.entries().isEmpty)
        #expect(cache.body("1", entry: entry) == nil)
        chmod(cache.directory, 0o700)
        #expect(cache.entry("1") != nil)
    }

    @Test func storeThenReadBack() throws {
        let temporary = TemporaryCache()
        let body = Self.body(10_000)
        try temporary.cache.store(Self.metadata("3"), body: body, etag: "\"abc\"")
        let entry = try #require(temporary.cache.entry("3"))
        #expect(entry.etag == "\"abc\"")
        #expect(entry.size == body.count)
        #expect(temporary.cache.body("3", entry: entry)?.bytes() == body)
        // zcat reads the file the cache wrote.
        let compressed = Array(try Data(contentsOf: URL(fileURLWithPath: temporary.cache.directory + "/3.html.gz")))
        #expect(try Gzip.decompress(compressed, limit: 1 << 20) == body)
        #expect(temporary.cache.entries().map(\.metadata.id) == ["3"])
    }

    /// A body is linked straight to its name when nothing holds it, and otherwise renamed over
    /// what does: a second copy replaces the first, a symlink planted at its name is replaced
    /// (never written through), and each file is private.
    @Test func aBodyReplacesWhatHoldsItsNameAndNeverWritesThroughALink() throws {
        let temporary = TemporaryCache()
        try temporary.cache.store(Self.metadata("4"), body: Self.body(100), etag: nil)
        let second = Self.body(5_000)
        try temporary.cache.store(Self.metadata("4"), body: second, etag: nil)
        #expect(temporary.cache.entry("4").flatMap { temporary.cache.body("4", entry: $0)?.bytes() } == second)
        let outside = TemporaryFolders.make("blogctl-outside") + "/victim"
        try Data("untouched".utf8).write(to: URL(fileURLWithPath: outside))
        let path = temporary.cache.directory + "/5.html.gz"
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: outside)
        try temporary.cache.store(Self.metadata("5"), body: second, etag: nil)
        #expect(try String(contentsOfFile: outside, encoding: .utf8) == "untouched")
        var info = stat()
        #expect(lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG && info.st_mode & 0o777 == 0o600)
        #expect(temporary.cache.entry("5").flatMap { temporary.cache.body("5", entry: $0)?.bytes() } == second)
    }

    /// A feed's entries stored in one batch: each read back as stored, each body searchable,
    /// nothing temporary left, and a later batch replacing one entry replaces it alone.
    @Test func aBatchIsStoredReadableAndIndexed() throws {
        let temporary = TemporaryCache()
        let items = (1...40).map { number in
            (metadata: Self.metadata("f\(number)"), body: Array("<p>entry \(number) speaks of word\(number)x</p>".utf8), etag: Optional("\"e\(number)\""))
        }
        temporary.cache.storeAll(items)
        #expect(temporary.cache.entries().count == 40)
        for item in items {
            let entry = try #require(temporary.cache.entry(item.metadata.id))
            #expect(entry.etag == item.etag && temporary.cache.body(item.metadata.id, entry: entry)?.bytes() == item.body)
        }
        #expect(try temporary.cache.search(["word17x"], limit: 5, marks: ("", "")).map(\.id) == ["f17"])
        temporary.cache.storeAll([(Self.metadata("f17"), Array("<p>now about other things</p>".utf8), "\"new\"")])
        #expect(try temporary.cache.search(["word17x"], limit: 5, marks: ("", "")).isEmpty)
        #expect(try temporary.cache.search(["word18x"], limit: 5, marks: ("", "")).map(\.id) == ["f18"])
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: temporary.cache.directory).filter { $0.contains(".tmp.") }
        #expect(leftovers.isEmpty)
    }

    /// A cached body is decompressed piece by piece as it is rendered: the same page as from memory.
    @Test func aCachedBodyRendersAsTheSameBytesWould() throws {
        let temporary = TemporaryCache()
        var html = "<h1>Big</h1>"
        for index in 0..<20_000 { html += "<p>Paragraph \(index) with <b>bold</b> and <a href=\"/x/\(index % 7)\">a link</a>.</p>\n" }
        for body in [Array(html.utf8), Array("Plain text.\n\nSecond paragraph.".utf8)] {
            try temporary.cache.store(Self.metadata("big"), body: body, etag: nil)
            let entry = try #require(temporary.cache.entry("big"))
            let cached = try #require(temporary.cache.body("big", entry: entry))
            guard case .file = cached else { Issue.record("expected a body read from its file"); return }
            let options = RenderOptions(width: 70)
            #expect(try PostPage.render(Self.metadata("big"), body: cached, options: options)
                    == PostPage.render(Self.metadata("big"), body: body, options: options))
            #expect(cached.bytes() == body)
        }
    }

    @Test func nothingTemporaryIsLeftBehind() throws {
        let temporary = TemporaryCache()
        try temporary.cache.store(Self.metadata("1"), body: Self.body(100), etag: nil)
        let names = try FileManager.default.contentsOfDirectory(atPath: temporary.cache.directory).sorted()
        #expect(names == ["1.html.gz", "1.json"])
    }

    @Test func aCorruptBodyIsDiscarded() throws {
        let temporary = TemporaryCache()
        try temporary.cache.store(Self.metadata("5"), body: Self.body(50_000), etag: "\"x\"")
        let path = temporary.cache.directory + "/5.html.gz"
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        bytes[bytes.count / 2] ^= 0xFF
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let entry = try #require(temporary.cache.entry("5"))
        #expect(temporary.cache.body("5", entry: entry) == nil)
        #expect(temporary.cache.entry("5") == nil, "the damaged entry is removed")
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    /// A body is checked by its stored bytes' CRC-32 (read, not inflated: rendering inflates
    /// it): another well-formed gzip of the same length and size in its place is refused,
    /// and a sidecar from before the CRC was kept is still checked by inflating the body.
    @Test func aBodyIsCheckedByTheBytesWrittenOrByInflatingIt() throws {
        let temporary = TemporaryCache()
        let entry = try temporary.cache.store(Self.metadata("1"), body: Array("<p>first</p>".utf8), etag: nil)
        _ = try temporary.cache.store(Self.metadata("2"), body: Array("<p>other</p>".utf8), etag: nil)
        #expect(entry.storedCRC != nil)
        let path = temporary.cache.directory + "/1.html.gz"
        let other = try Data(contentsOf: URL(fileURLWithPath: temporary.cache.directory + "/2.html.gz"))
        #expect(other.count == entry.storedSize)
        try other.write(to: URL(fileURLWithPath: path))
        #expect(temporary.cache.body("1", entry: entry) == nil, "a well-formed body that is not the one written")

        var old = try temporary.cache.store(Self.metadata("3"), body: Self.body(10_000), etag: nil)
        old.storedCRC = nil
        try LocalFile.writeAtomically(temporary.cache.directory + "/3.json", Array(JSONCoding.encode(old)), mode: 0o600)
        let read = try #require(temporary.cache.entry("3"))
        #expect(read.storedCRC == nil)
        #expect(temporary.cache.body("3", entry: read)?.bytes() == Self.body(10_000))
        let third = temporary.cache.directory + "/3.html.gz"
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: third)))
        bytes[bytes.count / 2] ^= 0xFF
        try Data(bytes).write(to: URL(fileURLWithPath: third))
        #expect(temporary.cache.body("3", entry: read) == nil, "without a CRC, damage is found by inflating")
    }

    @Test func aTruncatedBodyIsDiscarded() throws {
        let temporary = TemporaryCache()
        try temporary.cache.store(Self.metadata("6"), body: Self.body(50_000), etag: nil)
        let path = temporary.cache.directory + "/6.html.gz"
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        try Data(bytes[0..<(bytes.count - 10)]).write(to: URL(fileURLWithPath: path))
        let entry = try #require(temporary.cache.entry("6"))
        #expect(temporary.cache.body("6", entry: entry) == nil)
        #expect(temporary.cache.entry("6") == nil)
    }

    /// A body replaced by a valid gzip of something else (a crash between the two renames,
    /// or tampering) no longer matches the recorded length.
    @Test func aBodyOfAnotherLengthIsDiscarded() throws {
        let temporary = TemporaryCache()
        try temporary.cache.store(Self.metadata("7"), body: Self.body(1000), etag: nil)
        try Data(Gzip.compress(Self.body(999))).write(to: URL(fileURLWithPath: temporary.cache.directory + "/7.html.gz"))
        let entry = try #require(temporary.cache.entry("7"))
        #expect(temporary.cache.body("7", entry: entry) == nil)
    }

    /// A crafted file claiming a small size but expanding hugely is cut at the recorded size.
    @Test func aBombInTheCacheIsBounded() throws {
        let temporary = TemporaryCache()
        try temporary.cache.store(Self.metadata("8"), body: Self.body(1000), etag: nil)
        try Data(Gzip.compress([UInt8](repeating: 0x41, count: 32 << 20), level: 9))
            .write(to: URL(fileURLWithPath: temporary.cache.directory + "/8.html.gz"))
        let entry = try #require(temporary.cache.entry("8"))
        #expect(temporary.cache.body("8", entry: entry) == nil)
    }

    @Test func aMissingOrGarbledSidecarIsNoEntry() throws {
        let temporary = TemporaryCache()
        try temporary.cache.store(Self.metadata("9"), body: Self.body(100), etag: nil)
        try Data("{not json".utf8).write(to: URL(fileURLWithPath: temporary.cache.directory + "/9.json"))
        #expect(temporary.cache.entry("9") == nil)
        #expect(temporary.cache.entry("nothing") == nil)
    }

    @Test func leastRecentlyUsedIsEvictedFirst() throws {
        // Random bodies barely compress: each entry takes a little over 10 kB on disk.
        let temporary = TemporaryCache(capacity: 35_000)
        for (index, id) in ["a", "b", "c"].enumerated() {
            try temporary.cache.store(Self.metadata(id), body: Self.noise(10_000, seed: UInt64(index)), etag: nil)
            Self.setLastUsed(temporary.cache, id, 1_000_000 + index)
        }
        // "a" is read again: now "b" is the least recently used.
        let a = try #require(temporary.cache.entry("a"))
        #expect(temporary.cache.body("a", entry: a) != nil)
        try temporary.cache.store(Self.metadata("d"), body: Self.noise(10_000, seed: 9), etag: nil)
        let left = Set(temporary.cache.entries().map(\.metadata.id))
        #expect(left == ["a", "c", "d"])
        #expect(temporary.cache.totalSize() <= 35_000)
    }

    @Test func theNewestEntryIsKeptEvenWhenItAloneIsOverTheCap() throws {
        let temporary = TemporaryCache(capacity: 5_000)
        try temporary.cache.store(Self.metadata("old"), body: Self.noise(3_000, seed: 1), etag: nil)
        try temporary.cache.store(Self.metadata("big"), body: Self.noise(20_000, seed: 2), etag: nil)
        #expect(temporary.cache.entries().map(\.metadata.id) == ["big"])
    }

    @Test func leftoversOfDeadWritersAreRemoved() throws {
        let temporary = TemporaryCache()
        try temporary.cache.store(Self.metadata("1"), body: Self.body(100), etag: nil)
        // A pid that cannot exist (above pid_max) stands for a writer that died mid-write.
        let stale = temporary.cache.directory + "/" + LocalFile.temporaryPrefix(for: "2.html.gz") + "99999999.0123456789abcdef"
        let live = temporary.cache.directory + "/" + LocalFile.temporaryPrefix(for: "3.html.gz") + String(getpid()) + ".0123456789abcdef"
        _ = FileManager.default.createFile(atPath: stale, contents: Data("partial".utf8))
        _ = FileManager.default.createFile(atPath: live, contents: Data("in progress".utf8))
        temporary.cache.evict()
        #expect(!FileManager.default.fileExists(atPath: stale))
        #expect(FileManager.default.fileExists(atPath: live))
    }

    @Test func clearRemovesEverything() throws {
        let temporary = TemporaryCache()
        for id in ["1", "2"] { try temporary.cache.store(Self.metadata(id), body: Self.body(100), etag: nil) }
        #expect(try temporary.cache.clear() == 2)
        #expect(temporary.cache.entries().isEmpty)
        #expect(temporary.cache.totalSize() == 0)
    }

    /// Issue 10: clear and eviction deleted what the cache never wrote.
    @Test func clearAndEvictionDeleteOnlyOurOwnRegularFiles() throws {
        let temporary = TemporaryCache()
        try temporary.cache.store(Self.metadata("1"), body: Self.body(100), etag: nil)
        let folder = temporary.cache.directory
        let outside = temporary.root + "/outside.json"
        _ = FileManager.default.createFile(atPath: outside, contents: Data("keep".utf8))
        let foreign = ["notes.txt", ".profile.99999999", ".x.tmp.99999999", "a b.json", ".2.json.tmp.99999999.nothex_nothex__"]
        for name in foreign { _ = FileManager.default.createFile(atPath: folder + "/" + name, contents: Data("mine".utf8)) }
        try FileManager.default.createSymbolicLink(atPath: folder + "/9.json", withDestinationPath: outside)
        temporary.cache.evict()
        #expect(try temporary.cache.clear() == 1)
        for name in foreign { #expect(FileManager.default.fileExists(atPath: folder + "/" + name), "\(name)") }
        #expect(FileManager.default.fileExists(atPath: folder + "/9.json"))
        #expect(try String(contentsOfFile: outside, encoding: .utf8) == "keep")
        #expect(!FileManager.default.fileExists(atPath: folder + "/1.json"))
    }

    @Test func aSymlinkedOrWorldWritableFolderIsRefused() throws {
        let temporary = TemporaryCache()
        try temporary.cache.store(Self.metadata("1"), body: Self.body(100), etag: nil)
        chmod(temporary.cache.directory, 0o777)
        #expect(throws: ToolError.self) { try temporary.cache.clear() }
        #expect(throws: ToolError.self) { try temporary.cache.store(Self.metadata("2"), body: Self.body(1), etag: nil) }
        chmod(temporary.cache.directory, 0o700)
        let elsewhere = temporary.root + "/elsewhere"
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: elsewhere + "/5.json", contents: Data("theirs".utf8))
        let linked = PostCache(directory: temporary.root + "/linked")
        try FileManager.default.createSymbolicLink(atPath: linked.directory, withDestinationPath: elsewhere)
        #expect(throws: ToolError.self) { try linked.clear() }
        #expect(FileManager.default.fileExists(atPath: elsewhere + "/5.json"))
    }

    @Test func aFIFOOrSymlinkInPlaceOfACachedBodyIsNotRead() throws {
        let temporary = TemporaryCache()
        let entry = try temporary.cache.store(Self.metadata("1"), body: Self.body(100), etag: nil)
        let body = temporary.cache.directory + "/1.html.gz"
        unlink(body)
        #expect(mkfifo(body, 0o600) == 0)
        #expect(temporary.cache.body("1", entry: entry) == nil)
        try temporary.cache.store(Self.metadata("2"), body: Self.body(100), etag: nil)
        let second = temporary.cache.directory + "/2.html.gz"
        unlink(second)
        try FileManager.default.createSymbolicLink(atPath: second, withDestinationPath: "/dev/zero")
        #expect(temporary.cache.entry("2").flatMap { temporary.cache.body("2", entry: $0) } == nil)
    }

    /// Issue 10: a sidecar that claims more than its body holds is damage, not an instruction.
    @Test func aSidecarThatLiesAboutItsBodyIsDamage() throws {
        let temporary = TemporaryCache()
        var entry = try temporary.cache.store(Self.metadata("1"), body: Self.body(1_000), etag: nil)
        entry.size = 1 << 30
        try LocalFile.writeAtomically(temporary.cache.directory + "/1.json", Array(JSONCoding.encode(entry)), mode: 0o600)
        let claimed = try #require(temporary.cache.entry("1"))
        #expect(claimed.size == 1 << 30)
        #expect(temporary.cache.body("1", entry: claimed) == nil)
        #expect(temporary.cache.entry("1") == nil, "the damaged entry is removed")
    }

    @Test func findsAPostByItsPostIdToo() throws {
        let temporary = TemporaryCache()
        var metadata = Self.metadata("7")
        metadata.postId = "p-007"
        try temporary.cache.store(metadata, body: Self.body(100), etag: nil)
        #expect(temporary.cache.find("p-007")?.metadata.id == "7")
        #expect(temporary.cache.find("7")?.metadata.postId == "p-007")
    }

    @Test func capacityFromTheEnvironment() throws {
        #expect(try PostCache.standard(server: try ServerURL("http://127.0.0.1:8106"), environment: ["HOME": "/h"]).capacity == 200_000_000)
        #expect(try PostCache.standard(server: try ServerURL("http://127.0.0.1:8106"), environment: ["HOME": "/h", "BLOGCTL_CACHE_MAX": "50M"]).capacity == 50_000_000)
        let server = try ServerURL("http://127.0.0.1:8106")
        let folder = server.folderName
        #expect(folder.hasPrefix("127.0.0.1-8106-") && folder.count == "127.0.0.1-8106-".count + 16)
        #expect(try PostCache.standard(server: server, environment: ["HOME": "/h"]).directory == "/h/.cache/blogctl/servers/\(folder)/posts")
        #expect(try PostCache.standard(server: server, environment: ["XDG_CACHE_HOME": "/c"]).directory == "/c/blogctl/servers/\(folder)/posts")
        // Another port, path or scheme is another server, and another folder; a host no file
        // name may hold is made safe.
        for other in ["http://127.0.0.1:8107", "http://127.0.0.1:8106/v2", "https://127.0.0.1:8106"] {
            #expect(try ServerURL(other).folderName != folder, "\(other)")
        }
        #expect(try ServerURL("http://[::1]:8106").folderName.hasPrefix("__1-8106-"))
        #expect(throws: ToolError.self) { try PostCache.standard(server: try ServerURL("http://127.0.0.1:8106"), environment: ["BLOGCTL_CACHE_MAX": "lots"]) }
    }

    @Test func byteSizes() {
        #expect(ByteSize.parse("1000") == 1000)
        #expect(ByteSize.parse("500K") == 500_000)
        #expect(ByteSize.parse("2M") == 2_000_000)
        #expect(ByteSize.parse("1G") == 1_000_000_000)
        #expect(ByteSize.parse("1MiB") == 1 << 20)
        #expect(ByteSize.parse("-1") == nil)
        #expect(ByteSize.parse("M") == nil)
        #expect(ByteSize.parse("99999999999999999999G") == nil)
    }
}
