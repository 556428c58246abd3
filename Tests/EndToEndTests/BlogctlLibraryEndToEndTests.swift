import Foundation
import SQLiteKit
import Testing
import TestSupport
import ToolboxKit

/// Issue 63: one library for everything blogctl reads, tried as a reader of feeds would.
@Suite struct BlogctlLibraryEndToEndTests {
    func blogctl(_ arguments: [String], _ sandbox: Sandbox, environment: [String: String] = [:]) throws -> ToolRun {
        try runTool("blogctl", arguments, sandbox: sandbox, environment: ["BLOGCTL_SERVER": "", "TOOLBOX_SERVER": ""].merging(environment) { $1 })
    }

    static let quiet = ["--quiet", "--latency", "0", "--failure-rate", "0", "--massive-size", "0", "--feeds", "1"]

    static func ids(_ run: ToolRun) -> [String] { run.lines.map { String($0.split(separator: "\t")[1]) } }

    /// A feed carries only its newest entries: when it goes from five to two, the library keeps
    /// all five, read or not, and `list` (online and offline), `read`, `search` and `feeds` agree.
    @Test func entriesThatLeaveTheirFeedStay() async throws {
        let sandbox = try Sandbox()
        let port = try await withMockd(Self.quiet + ["--feed-items", "5"], sandbox: sandbox) { mockd in
            #expect(try blogctl(["feeds", "add", mockd.url + "/feeds/1.xml"], sandbox).status == 0)
            let first = try blogctl(["list"], sandbox)
            #expect(first.status == 0 && Set(Self.ids(first)) == Set((1...5).map { "feed-1-item-\($0)" }), "\(first.stdout)\(first.stderr)")
            #expect(try blogctl(["mark", "feed-1-item-2"], sandbox).status == 0)
            return URLComponents(string: mockd.url)!.port!
        }
        let logged = Self.quiet.filter { $0 != "--quiet" }
        try await withMockd(logged + ["--feed-items", "2", "--port", String(port)], sandbox: sandbox, tailLog: true) { mockd in
            let after = try blogctl(["list"], sandbox)
            #expect(after.status == 0, "\(after.stderr)")
            #expect(Set(Self.ids(after)) == Set((1...5).map { "feed-1-item-\($0)" }), "\(after.stdout)")
            let offline = try blogctl(["list", "--offline"], sandbox)
            #expect(Set(Self.ids(offline)) == Set(Self.ids(after)))
            let unread = try blogctl(["list", "--unread"], sandbox)
            #expect(Set(Self.ids(unread)) == Set([1, 3, 4, 5].map { "feed-1-item-\($0)" }), "\(unread.stdout)")
            let feeds = try blogctl(["feeds"], sandbox)
            #expect(feeds.lines.first?.contains("\t5\t4\t") == true, "\(feeds.stdout)")
            // An entry that left its feed reads from the library and the cache, with nothing asked.
            // Two lists asked the feed; the read asks nothing; one more list asks once more:
            // waited for, so that a request of the read's would be in the log by then.
            let log = try #require(mockd.tail)
            _ = log.wait(for: 2) { $0.contains("GET ") }
            let read = try blogctl(["read", "feed-1-item-5", "--no-pager"], sandbox)
            #expect(read.status == 0, "\(read.stderr)")
            _ = try blogctl(["list"], sandbox)
            _ = log.wait(for: 3) { $0.contains("GET ") }
            #expect(log.lines.filter { $0.contains("GET ") }.count == 3, "a feed serves no single entry: \(log.lines)")
        }
    }

    /// A feed that fails is asked once a refresh (no retry after a 500), and one that answered
    /// 410 is never asked again, by `list` or by opening one of its entries.
    @Test func aFailingFeedIsAskedOnceAndAGoneOneNever() async throws {
        let sandbox = try Sandbox()
        let failing = try StubServer(response: "HTTP/1.1 500 Internal Server Error\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
        defer { failing.stop() }
        let gone = try StubServer(response: "HTTP/1.1 410 Gone\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
        defer { gone.stop() }
        #expect(try blogctl(["feeds", "add", "--force", failing.url + "/feed.xml", gone.url + "/feed.xml"], sandbox).status == 0)
        let list = try blogctl(["list"], sandbox)
        #expect(list.status == 75, "\(list.stderr)")
        #expect(failing.requests.count == 1, "\(failing.requests)")
        #expect(gone.requests.count == 1)
        _ = try blogctl(["list"], sandbox)
        #expect(failing.requests.count == 2)
        #expect(gone.requests.count == 1, "a gone feed is not asked again")
        let opened = try blogctl(["list", "--server", gone.url + "/feed.xml"], sandbox)
        #expect(opened.status != 0 && opened.stderr.contains("410"), "\(opened.stderr)")
        #expect(gone.requests.count == 1, "opening it asks nothing either")
    }

    /// A damaged library is refused in one line naming it, by every command that reads it, and
    /// never made anew.
    @Test func aDamagedLibraryIsRefusedNotReplaced() async throws {
        let sandbox = try Sandbox()
        try await withMockd(Self.quiet + ["--feed-items", "3"], sandbox: sandbox) { mockd in
            #expect(try blogctl(["feeds", "add", mockd.url + "/feeds/1.xml"], sandbox).status == 0)
            #expect(try blogctl(["list"], sandbox).status == 0)
            let library = sandbox.dataHome + "/blogctl/library.db"
            for suffix in ["-wal", "-shm"] { unlink(library + suffix) }
            let garbage = String(repeating: "not a database ", count: 400)
            try garbage.write(toFile: library, atomically: true, encoding: .utf8)
            for arguments in [["feeds"], ["list", "--offline"], ["mark", "feed-1-item-1"], ["read", "feed-1-item-1", "--no-pager"]] {
                let run = try blogctl(arguments, sandbox)
                #expect(run.status == 74, "\(arguments): \(run.status) \(run.stderr)")
                #expect(run.stderr.contains(library) && run.stderr.contains("damaged"), "\(arguments): \(run.stderr)")
            }
            #expect(try String(contentsOfFile: library, encoding: .utf8) == garbage)
        }
    }

    /// SIGKILL at every statement of a refresh and of a mark: the library stays consistent
    /// (SQLite's integrity check), no committed mark is lost, and the next run completes.
    @Test func aKillAtAnyStatementLosesNoMark() async throws {
        let sandbox = try Sandbox()
        try await withMockd(Self.quiet + ["--feed-items", "4"], sandbox: sandbox) { mockd in
            #expect(try blogctl(["feeds", "add", mockd.url + "/feeds/1.xml"], sandbox).status == 0)
            #expect(try blogctl(["list"], sandbox).status == 0)
            #expect(try blogctl(["mark", "feed-1-item-1"], sandbox).status == 0)
            var killed = 0
            for statement in 1...60 {
                let kill = ["TOOLBOX_TEST_KILL_AT_STATEMENT": String(statement)]
                let marking = try blogctl(["mark", "feed-1-item-\(statement % 4 + 1)"], sandbox, environment: kill)
                let listing = try blogctl(["list"], sandbox, environment: kill)
                if marking.signaled || listing.signaled { killed += 1 }
                let library = try SQLiteFile(sandbox.dataHome + "/blogctl/library.db")
                let check = try library.alone { try $0.value("PRAGMA integrity_check")?.string }
                let marked = try library.alone { db in
                    try db.rows("SELECT id FROM marks").compactMap { $0.values[0].string }
                }
                library.close()
                #expect(check == "ok", "statement \(statement)")
                #expect(marked.contains("feed-1-item-1"), "statement \(statement): \(marked)")
            }
            #expect(killed > 10, "the kill points were reached")
            let after = try blogctl(["list", "--unread"], sandbox)
            #expect(after.status == 0 && !Self.ids(after).contains("feed-1-item-1"))
        }
    }
}

/// Issue 63: a newsboat user keeps their reading. newsboat itself (Debian's package, which
/// `make deps` installs) writes the cache.db: it reloads mockd's feeds and imports a list of
/// read guids (`-I`); blogctl then takes the urls file and the cache.db.
@Suite struct NewsboatImportEndToEndTests {
    @Test func newsboatsCacheBringsItsReadingAlong() async throws {
        let sandbox = try Sandbox()
        let newsboat = try #require(["/usr/bin/newsboat", "/usr/local/bin/newsboat"].first { FileManager.default.isExecutableFile(atPath: $0) },
                                    "newsboat is not installed: make deps installs it")
        try await withMockd(BlogctlLibraryEndToEndTests.quiet.dropLast(2) + ["--feeds", "2", "--feed-items", "5"], sandbox: sandbox) { mockd in
            let home = sandbox.root + "/newsboat"
            try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
            let urls = home + "/urls"
            try "\(mockd.url)/feeds/1.xml tech \"~One\"\n# a comment\n\(mockd.url)/feeds/2.xml\n".write(toFile: urls, atomically: true, encoding: .utf8)
            try "feed-1-item-2\nfeed-2-item-4\n".write(toFile: home + "/read", atomically: true, encoding: .utf8)
            let cache = home + "/cache.db"
            for arguments in [["-x", "reload"], ["-I", home + "/read"]] {
                let run = try runTool("newsboat", ["-u", urls, "-c", cache, "-C", "/dev/null"] + arguments, sandbox: sandbox,
                                      environment: ["HOME": home], executable: newsboat)
                #expect(run.status == 0, "newsboat \(arguments): \(run.stderr)")
            }
            // A flag newsboat keeps in its own column (set here as newsboat's `flags` key would).
            let file = try SQLiteFile(cache)
            try file.executeAlone("UPDATE rss_item SET flags = 's' WHERE guid = 'feed-2-item-1'")
            file.close()

            let blogctl = { (arguments: [String]) throws -> ToolRun in
                try runTool("blogctl", arguments, sandbox: sandbox, environment: ["BLOGCTL_SERVER": "", "TOOLBOX_SERVER": ""])
            }
            #expect(try blogctl(["feeds", "import", urls]).stderr.contains("imported 2 feeds"))
            let imported = try blogctl(["feeds", "import", cache])
            #expect(imported.status == 0 && imported.stderr.contains("10 entries, 2 read"), "\(imported.stderr)")
            let subscribed = try String(contentsOfFile: sandbox.root + "/config/blogctl/urls", encoding: .utf8)
            #expect(subscribed.components(separatedBy: "\n").filter { $0.contains("/feeds/") }.count == 2, "\(subscribed)")
            let unread = try blogctl(["list", "--offline", "--unread"])
            let ids = Set(unread.lines.map { String($0.split(separator: "\t")[1]) })
            #expect(ids.count == 8 && !ids.contains("feed-1-item-2") && !ids.contains("feed-2-item-4"), "\(unread.stdout)")
            let library = try SQLiteFile(sandbox.dataHome + "/blogctl/library.db")
            let flags = try library.alone { try $0.value("SELECT flags FROM entries WHERE id = 'feed-2-item-1'")?.string }
            library.close()
            #expect(flags == "s")
            // The feeds' sites newsboat kept (their own links, relative ones read against the
            // feed) are written back by an export.
            let exported = try blogctl(["feeds", "export"])
            #expect(exported.stdout.contains("xmlUrl=\"\(mockd.url)/feeds/1.xml\" htmlUrl=\"\(mockd.url)/feeds/1\""), "\(exported.stdout)")
            // The filter language reads the flags (newsboat's `flags` attribute).
            let starred = try blogctl(["list", "--offline", "--filter", "flags =~ \"s\""])
            #expect(starred.status == 0 && starred.lines.map { String($0.split(separator: "\t")[1]) } == ["feed-2-item-1"], "\(starred.stdout)\(starred.stderr)")
            // Online, the feeds' own entries: newsboat's marks still hold.
            let online = try blogctl(["list", "--unread"])
            #expect(online.status == 0, "\(online.stderr)")
            #expect(Set(online.lines.map { String($0.split(separator: "\t")[1]) }) == ids)
            // The cache.db is left as newsboat wrote it, and a second import adds nothing.
            let again = try blogctl(["feeds", "import", cache])
            #expect(again.stderr.contains("0 feeds subscribed (2 already)"), "\(again.stderr)")
        }
    }
}

/// Issue 63: `feeds add` asks the URL once and says what it found.
@Suite struct FeedsAddEndToEndTests {
    @Test func eachURLIsAskedOnceAndWhatItIsSaid() async throws {
        let sandbox = try Sandbox()
        try await withMockd(BlogctlLibraryEndToEndTests.quiet.filter { $0 != "--quiet" }.dropLast(2) + ["--feeds", "1", "--feed-items", "3"],
                            sandbox: sandbox, tailLog: true) { mockd in
            let blogctl = { (arguments: [String]) throws -> ToolRun in
                try runTool("blogctl", arguments, sandbox: sandbox, environment: ["BLOGCTL_SERVER": "", "TOOLBOX_SERVER": ""])
            }
            let dead = try StubServer(response: "")
            dead.stop()
            let page = try StubServer(response: "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 20\r\nConnection: close\r\n\r\n<p>no feed here</p>\n")
            defer { page.stop() }
            // A feed: subscribed, its entries kept, so the first list is answered 304.
            let feed = try blogctl(["feeds", "add", mockd.url + "/feeds/1.xml"])
            #expect(feed.status == 0 && feed.stderr.contains("subscribed to 1 feed"), "\(feed.stderr)")
            let log = try #require(mockd.tail)
            _ = log.wait(for: 1) { $0.contains("GET /feeds/1.xml") }
            #expect(try blogctl(["list", "--offline"]).lines.count == 3)
            // The blog's page names /feed.rss first; once that is subscribed, the page is not added.
            #expect(try blogctl(["feeds", "add", mockd.url + "/feed.rss"]).status == 0)
            let twice = try blogctl(["feeds", "add", mockd.url + "/blog"])
            #expect(twice.stderr.contains("already subscribed; not added"), "\(twice.stderr)")
            // Not a feed, not reachable: refused with the reason, nothing written; --force adds.
            let refused = try blogctl(["feeds", "add", page.url + "/", dead.url + "/feed.xml"])
            #expect(refused.status != 0, "\(refused.stderr)")
            #expect(refused.stderr.contains("not subscribed") && refused.stderr.contains("connection refused"), "\(refused.stderr)")
            let urls = try String(contentsOfFile: sandbox.root + "/config/blogctl/urls", encoding: .utf8)
            #expect(!urls.contains(page.url) && !urls.contains(dead.url), "\(urls)")
            #expect(try blogctl(["feeds", "add", "--force", dead.url + "/feed.xml"]).status == 0)
            // Issue 65: `--server FEED_URL` out of reach names the URL typed, not the API path.
            let unreachable = try blogctl(["list", "--server", dead.url + "/feed.xml"])
            #expect(unreachable.status != 0 && unreachable.stderr.contains("connection refused (\(dead.url)/feed.xml)")
                    && !unreachable.stderr.contains("post-metadata"), "\(unreachable.stderr)")
        }
    }
}
