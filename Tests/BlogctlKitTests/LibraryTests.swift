import Foundation
import SQLiteKit
import TestSupport
import Testing
import ToolboxKit
@testable import BlogctlKit
@testable import BlogctlEngines

/// Issue 63: one SQLite library for every source blogctl reads, as newsboat's cache.db.
@Suite struct LibraryTests {
    struct Home {
        let root = TemporaryFolders.make("blogctl-library")
        var environment: [String: String] {
            ["HOME": root, "XDG_DATA_HOME": root + "/data", "XDG_CACHE_HOME": root + "/cache", "XDG_CONFIG_HOME": root + "/config"]
        }
        var libraryPath: String { root + "/data/blogctl/library.db" }
        func library() throws(ToolError) -> Library { try Library.standard(environment: environment) }
        func cache(_ server: ServerURL) throws -> PostCache { try PostCache.standard(server: server, environment: environment) }
    }

    static func post(_ id: String, _ title: String = "t", date: Double? = nil) -> PostMetadata {
        PostMetadata(id: id, title: title, publishDate: date.map { Date(timeIntervalSince1970: $0) }, postId: id, summary: "",
                     author: Author(name: "", image: "", title: ""))
    }

    @Test func aListingRoundTripsInAPrivateFile() throws {
        let home = Home()
        let server = try ServerURL("http://127.0.0.1:9")
        let cache = try home.cache(server)
        #expect(try cache.savedListing() == nil)
        try cache.saveListing(Fixtures.posts)
        #expect(try cache.savedListing() == Fixtures.posts)
        var info = stat()
        #expect(stat(home.libraryPath, &info) == 0 && info.st_mode & 0o777 == 0o600)
        #expect(stat(home.root + "/data/blogctl", &info) == 0 && info.st_mode & 0o777 == 0o700)
        // No per-server listing file is written any more.
        #expect(!FileManager.default.fileExists(atPath: home.root + "/cache/blogctl/servers/\(server.folderName)/listing.tsv"))
    }

    /// Any text in any field comes back as it went, NUL, tabs and line breaks included, and a
    /// listing of thousands in one transaction.
    @Test func everyFieldRoundTripsWhateverItHolds() throws {
        let home = Home()
        var generator = SeededGenerator(seed: 63)
        let pieces = ["\t", "\n", "\r", "\\", "a", "é", "e\u{301}", "👨‍👩‍👧", " ", "\u{0}", "東京", "\"", "'"]
        func text() -> String { (0..<Int.random(in: 0...6, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined() }
        let posts = (0..<6000).map { number in
            PostMetadata(id: text() + "\(number)", title: text(),
                         publishDate: number % 5 != 0 ? Date(timeIntervalSince1970: Double.random(in: -1e10...1e10, using: &generator)) : nil,
                         postId: text(), summary: text(), author: Author(name: text(), image: text(), title: text()),
                         link: number % 3 == 0 ? "https://example.org/" + text() : nil, base: number % 3 == 0 ? text() : nil)
        }
        let cache = try home.cache(try ServerURL("http://127.0.0.1:9"))
        try cache.saveListing(posts)
        #expect(try cache.savedListing() == posts)
    }

    /// A feed's entries stay when they leave it (a releases feed going from five to two keeps
    /// all five), after the entries it has now; the API's list is the whole blog, and replaces.
    @Test func aFeedKeepsWhatLeftItAndTheAPIDoesNot() throws {
        let home = Home()
        let feed = try ServerURL("http://127.0.0.1:9/releases.xml", allowingQuery: true)
        let api = try ServerURL("http://127.0.0.1:10")
        try home.library().update(feed) { $0.kind = .feed; $0.feedURL = feed.resource }
        let five = (1...5).map { Self.post("v\($0)") }
        try home.cache(feed).saveListing(five)
        try home.cache(feed).saveListing([Self.post("v6"), Self.post("v5")])
        #expect(try home.cache(feed).savedListing()?.map(\.id) == ["v6", "v5", "v1", "v2", "v3", "v4"])
        try home.cache(api).saveListing(five)
        try home.cache(api).saveListing([Self.post("v6")])
        #expect(try home.cache(api).savedListing()?.map(\.id) == ["v6"])
    }

    /// newsboat's max-items: the newest kept, what the feed has now before what left it.
    @Test func maxItemsBoundsWhatAFeedKeeps() throws {
        let home = Home()
        let feed = try ServerURL("http://127.0.0.1:9/f.xml", allowingQuery: true)
        let library = try home.library()
        try library.update(feed) { $0.kind = .feed }
        // A listing 5x past the cap keeps the cap's newest.
        try library.saveListing((0..<20).map { Self.post("old\($0)", date: Double($0)) }, server: feed, maxItems: 4)
        #expect(try library.listing(feed)?.map(\.id) == ["old16", "old17", "old18", "old19"])
        // What the feed has now first, then the newest of what left it.
        try library.saveListing([Self.post("new", date: 0)], server: feed, maxItems: 3)
        #expect(try library.listing(feed)?.map(\.id) == ["new", "old18", "old19"])
        // No cap (0, the default): everything seen stays.
        try library.saveListing((0..<40).map { Self.post("more\($0)") }, server: feed, maxItems: 0)
        #expect(try library.listing(feed)?.count == 43)
    }

    /// The questions across sources are one query each: counts, the holders of an id, entries.
    @Test func questionsAcrossSources() throws {
        let home = Home()
        let library = try home.library()
        let servers = try (1...3).map { try ServerURL("http://127.0.0.1:9/\($0).xml", allowingQuery: true) }
        for (index, server) in servers.enumerated() {
            try library.update(server) { $0.kind = .feed; $0.title = "Feed \(index)" }
            try library.saveListing([Self.post("shared"), Self.post("own-\(index)"), Self.post("own-\(index)x")], server: server)
        }
        _ = try library.mark(["shared", "own-1"], read: true, server: servers[1])
        let counts = try library.acrossFeeds.counts(of: servers)
        #expect(counts[servers[0].folderName]?.entries == 3 && counts[servers[0].folderName]?.unread == 3)
        #expect(counts[servers[1].folderName]?.unread == 1)
        #expect(counts[servers[2].folderName]?.source.title == "Feed 2")
        #expect(try library.acrossFeeds.holders(of: "own-1", among: servers).exact == [1])
        #expect(try library.acrossFeeds.holders(of: "own-1", among: servers).starting == [])
        #expect(try library.acrossFeeds.holders(of: "own-2x", among: servers).exact == [2])
        #expect(try library.acrossFeeds.holders(of: "own", among: servers).starting == [0, 1, 2])
        #expect(try library.acrossFeeds.holders(of: "shared", among: servers).exact == [0, 1, 2])
        #expect(try library.acrossFeeds.holders(of: "shared", among: [servers[2]]).exact == [0])
        let entries = try library.acrossFeeds.entries(of: [servers[2], servers[1]])
        #expect(entries.map(\.source) == [0, 0, 0, 1, 1, 1])
        #expect(entries.filter(\.read).map(\.post.id) == ["shared", "own-1"])
    }

    /// Two refreshes at once serialize: the second waits for the first's lock (an flock, so
    /// two descriptors of one process contend as two processes do), says so once, and takes
    /// the lock when the first lets it go.
    @Test func aSecondRefreshWaitsForTheFirstAndSaysSo() async throws {
        let library = try Home().library()
        var first = await RefreshLock.take(library) { Issue.record("nothing held the lock: no wait") }
        #expect(first != nil)
        let (waits, waiting) = AsyncStream.makeStream(of: Void.self)
        let second = Task { await RefreshLock.take(library) { waiting.yield() } }
        var said = 0
        for await _ in waits {
            said += 1
            first = nil  // the first refresh ends: its lock goes with it
            break
        }
        #expect(said == 1)
        #expect(await second.value != nil)
        #expect(first == nil)
    }

    /// A source's listing is read along an index, in order, never sorted (a `ui` start on
    /// 100,000 entries spent half its time sorting them).
    @Test func aListingIsReadInOrderWithoutSorting() throws {
        let library = try Home().library()
        let plan = try library.read { db in try db.rows("EXPLAIN QUERY PLAN " + Library.listingInOrder, [.integer(1)]) }
            .map { $0.values.last?.string ?? "" }
        #expect(plan.contains { $0.contains("USING INDEX entries_in_order") }, "\(plan)")
        #expect(!plan.contains { $0.contains("TEMP B-TREE") }, "\(plan)")
    }

    /// A file that is not a database, or another program's, is refused in one line naming it,
    /// and left as it was: never silently made anew.
    @Test func aDamagedOrForeignFileIsRefusedAndKept() throws {
        let home = Home()
        try FileManager.default.createDirectory(atPath: home.root + "/data/blogctl", withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        let garbage = Data(repeating: 0x41, count: 8192)
        try garbage.write(to: URL(fileURLWithPath: home.libraryPath))
        chmod(home.libraryPath, 0o600)
        do {
            _ = try home.library()
            Issue.record("a damaged library was opened")
        } catch {
            #expect(error.message.contains(home.libraryPath) && error.message.contains("damaged"), "\(error.message)")
            #expect(!error.message.contains("\n"))
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: home.libraryPath)) == garbage)

        let other = Home()
        try FileManager.default.createDirectory(atPath: other.root + "/data/blogctl", withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        let foreign = try SQLiteFile(other.libraryPath)
        try foreign.executeAlone("CREATE TABLE notes (text TEXT)")
        foreign.close()
        do {
            _ = try other.library()
            Issue.record("another program's database was opened")
        } catch {
            #expect(error.message.contains("not a blogctl library"), "\(error.message)")
        }
    }

    @Test func aSymlinkedOrSharedFolderIsRefused() throws {
        let home = Home()
        try FileManager.default.createDirectory(atPath: home.root + "/elsewhere", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: home.root + "/data", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: home.root + "/data/blogctl", withDestinationPath: home.root + "/elsewhere")
        #expect(throws: ToolError.self) { try home.library() }
        let shared = Home()
        try FileManager.default.createDirectory(atPath: shared.root + "/data/blogctl", withIntermediateDirectories: true)
        chmod(shared.root + "/data/blogctl", 0o777)
        #expect(throws: ToolError.self) { try shared.library() }
    }

    /// The files of blogctl before the library are taken in, each source's once, and left as
    /// they were: listing, feed state, health, its own marks or the shared ones before them.
    @Test func theOldLayoutIsTakenInOnceAndLeftAsItWas() throws {
        let home = Home()
        let feed = try ServerURL("http://127.0.0.1:9/f.xml", allowingQuery: true)
        let api = try ServerURL("http://127.0.0.1:10")
        let cacheFolder = home.root + "/cache/blogctl/servers/" + feed.folderName
        let dataFolder = home.root + "/data/blogctl/servers/" + feed.folderName
        for folder in [cacheFolder, dataFolder, home.root + "/cache/blogctl/servers/" + api.folderName] {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        chmod(home.root + "/data/blogctl", 0o700)
        let listing = ListingFile.encode(Fixtures.posts)
        try Data(listing).write(to: URL(fileURLWithPath: cacheFolder + "/listing.tsv"))
        try Data(ListingFile.encode([Self.post("api-1")])).write(to: URL(fileURLWithPath: home.root + "/cache/blogctl/servers/" + api.folderName + "/listing.tsv"))
        try Data(#"{"feed":"http://127.0.0.1:9/f.xml","etag":"\"e1\"","lastModified":"Sat, 28 Nov 2026 10:00:00 GMT","title":"Old Feed"}"#.utf8)
            .write(to: URL(fileURLWithPath: cacheFolder + "/feed.json"))
        try Data("HTTP 500 from the feed".utf8).write(to: URL(fileURLWithPath: cacheFolder + "/last-error"))
        try Data(#"["a1","g1"]"#.utf8).write(to: URL(fileURLWithPath: dataFolder + "/read.json"))
        // The one file of every server's marks before that: the API server has no own file.
        try Data(#"["api-1"]"#.utf8).write(to: URL(fileURLWithPath: home.root + "/data/blogctl/read.json"))

        let library = try home.library()
        #expect(try library.listing(feed) == Fixtures.posts)
        let source = try #require(try library.source(feed))
        #expect(source.kind == .feed && source.etag == "\"e1\"" && source.title == "Old Feed")
        #expect(source.lastError == "HTTP 500 from the feed" && !source.gone)
        #expect(try library.readIDs(feed) == ["a1", "g1"])
        #expect(try library.readIDs(api) == ["api-1"])
        #expect(try library.listing(api)?.map(\.id) == ["api-1"])
        // Left as they were.
        #expect(try Data(contentsOf: URL(fileURLWithPath: cacheFolder + "/listing.tsv")) == Data(listing))
        #expect(FileManager.default.fileExists(atPath: dataFolder + "/read.json"))
        // Once: a source removed and met again starts empty.
        try library.remove(feed)
        #expect(try library.source(feed) == nil)
        #expect(try library.readIDs(feed) == [])
        #expect(try library.listing(feed) == nil)
    }

    /// The files the previous release wrote (`OldLayout/home`, made by its own binaries with
    /// `OldLayout/make-old-layout.sh`) are taken in mark for mark: every server's listing, read
    /// marks, feed state and health, and the files are left byte for byte as they were.
    @Test func thePreviousReleasesFilesAreTakenInMarkForMark() throws {
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("OldLayout/home").path
        let home = Home()
        for folder in ["cache", "data", "config"] {
            try FileManager.default.copyItem(atPath: fixture + "/" + folder, toPath: home.root + "/" + folder)
        }
        // 8106: the previous release marked feed entries there when no server was named.
        let servers = try ["http://127.0.0.1:8106", "http://127.0.0.1:18900", "http://127.0.0.1:18900/feeds/1.xml", "http://127.0.0.1:18900/feeds/2.xml",
                           "http://127.0.0.1:18901/feed.xml", "http://127.0.0.1:18902/feed.xml"].map { try ServerURL($0, allowingQuery: true) }
        func files() throws -> [String: Data] {
            var all: [String: Data] = [:]
            for path in FileManager.default.enumerator(atPath: home.root)!.compactMap({ $0 as? String }) where !path.contains("library.db") {
                var isFolder: ObjCBool = false
                if FileManager.default.fileExists(atPath: home.root + "/" + path, isDirectory: &isFolder), !isFolder.boolValue {
                    all[path] = try Data(contentsOf: URL(fileURLWithPath: home.root + "/" + path))
                }
            }
            return all
        }
        let before = try files()
        #expect(before.keys.contains { $0.hasSuffix("read.json") } && before.keys.contains { $0.hasSuffix("feed.json") })
        let library = try home.library()
        var marks = 0
        for server in servers {
            let cache = home.root + "/cache/blogctl/servers/" + server.folderName
            let data = home.root + "/data/blogctl/servers/" + server.folderName
            if let listing = FileManager.default.contents(atPath: cache + "/listing.tsv") {
                #expect(try library.listing(server) == ListingFile.decode(Array(listing)).get(), "\(server)")
            }
            if let read = FileManager.default.contents(atPath: data + "/read.json") {
                let ids = try JSONDecoder().decode([String].self, from: read)
                #expect(try library.readIDs(server) == ReadMarks.IDs(ids), "\(server)")
                marks += ids.count
            }
            let source = try library.source(server)
            if let state = FileManager.default.contents(atPath: cache + "/feed.json") {
                let old = try JSONDecoder().decode(FeedServer.State.self, from: state)
                #expect(source?.kind == .feed && source?.feedURL == old.feed && source?.etag == old.etag
                        && source?.lastModified == old.lastModified && source?.title == old.title, "\(server)")
            }
            let error = FileManager.default.contents(atPath: cache + "/last-error").map { String(decoding: $0, as: UTF8.self) }
            #expect(source?.lastError == error, "\(server)")
            #expect(source?.gone == FileManager.default.fileExists(atPath: cache + "/gone"), "\(server)")
        }
        #expect(marks >= 4, "the fixture's marks were compared")
        #expect(try files() == before, "the old files are left as they were")
    }

    /// A feed that moved takes its entries, state and marks along, merged into the new URL's.
    @Test func aMoveCarriesEverything() throws {
        let home = Home()
        let library = try home.library()
        let old = try ServerURL("http://127.0.0.1:9/old.xml", allowingQuery: true)
        let new = try ServerURL("http://127.0.0.1:9/new.xml", allowingQuery: true)
        try library.update(old) { $0.kind = .feed; $0.title = "T"; $0.etag = "e"; $0.siteURL = "https://site.example/" }
        var pictured = Self.post("1")
        pictured.picture = "https://site.example/p.png"
        try library.saveListing([pictured, Self.post("2")], server: old)
        _ = try library.mark(["2"], read: true, server: old)
        try library.carry(from: old, to: new)
        // The feed's site and an entry's picture move with it.
        #expect(try library.source(new)?.siteURL == "https://site.example/")
        #expect(try library.listing(new)?.first?.picture == "https://site.example/p.png")
        // Listed at once at the new URL, before its first list there.
        #expect(try library.listing(new)?.map(\.id) == ["1", "2"])
        try library.saveListing([Self.post("3")], server: new)
        #expect(try library.listing(new)?.map(\.id) == ["3", "1", "2"])
        #expect(try library.readIDs(new) == ["2"])
        #expect(try library.source(new)?.title == "T" && library.source(new)?.feedURL == new.resource)
    }

    /// Two processes' worth of writers at once: every mark lands (one writer at a time, the
    /// busy timeout waiting for the other).
    @Test func twoConnectionsWritingAtOnceLoseNothing() async throws {
        let home = Home()
        _ = try home.library()
        let server = try ServerURL("http://127.0.0.1:9")
        let second = try Library(location: home.libraryPath, shown: home.libraryPath, oldLayout: OldLayout(environment: home.environment))
        let first = try home.library()
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<40 {
                let library = index % 2 == 0 ? first : second
                group.addTask {
                    _ = try? library.mark(["m\(index)"], read: true, server: server)
                    try? library.saveListing([Self.post("p\(index)")], server: server)
                }
            }
        }
        #expect(try first.readIDs(server).count == 40)
    }
}
