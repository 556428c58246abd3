import Foundation
import SQLiteKit
import Testing
import ToolboxKit

/// Issue 15: list filters, unread marks, links and open, against mockd.
@Suite struct BlogctlReaderEndToEndTests {
    func blogctl(_ arguments: [String], server: String, sandbox: Sandbox, environment: [String: String] = [:]) throws -> ToolRun {
        try runTool("blogctl", arguments, sandbox: sandbox, environment: ["BLOGCTL_SERVER": server].merging(environment) { $1 })
    }

    @Test func filtersCombineWithGroupingAndTheTSVColumnsStayTheSame() async throws {
        let sandbox = try Sandbox()
        try await withMockd(["--quiet"] + BlogctlEndToEndTests.fast, sandbox: sandbox) { mockd in
            let all = try blogctl(["list"], server: mockd.url, sandbox: sandbox)
            let rows = all.lines.map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
            try #require(rows.count > 4 && rows.allSatisfy { $0.count == 5 })
            let august = try blogctl(["list", "--since", "2018-08-01", "--until", "2018-08-31"], server: mockd.url, sandbox: sandbox)
            #expect(august.status == 0)
            let expected = rows.filter { $0[1] >= "2018-08-01" && $0[1] < "2018-09-01" }.map { $0.joined(separator: "\t") }
            #expect(august.lines.map(String.init) == expected)
            // Author, any case, grouped; the group column first as always.
            let ada = try blogctl(["list", "--author", "LOVELACE", "--group-by", "author"], server: mockd.url, sandbox: sandbox)
            #expect(!ada.lines.isEmpty && ada.lines.allSatisfy { $0.hasPrefix("Ada Lovelace\t") }, "\(ada.stdout)")
            let two = try blogctl(["list", "--limit", "2"], server: mockd.url, sandbox: sandbox)
            #expect(two.lines.map(String.init) == Array(all.lines.prefix(2)).map(String.init))
            let bad = try blogctl(["list", "--since", "August"], server: mockd.url, sandbox: sandbox)
            #expect(bad.status == 64 && bad.stderr.contains("--since"))
        }
    }

    @Test func readMarksAPostAndMarkChangesIt() async throws {
        let sandbox = try Sandbox()
        try await withMockd(["--quiet"] + BlogctlEndToEndTests.fast, sandbox: sandbox) { mockd in
            let before = try blogctl(["list", "--unread"], server: mockd.url, sandbox: sandbox)
            let ids = before.lines.map { String($0.split(separator: "\t")[0]) }
            try #require(ids.count > 3)
            let read = try blogctl(["read", ids[1]], server: mockd.url, sandbox: sandbox)
            #expect(read.status == 0, "\(read.stderr)")
            let after = try blogctl(["list", "--unread"], server: mockd.url, sandbox: sandbox)
            #expect(after.lines.map { String($0.split(separator: "\t")[0]) } == ids.filter { $0 != ids[1] })
            // JSON says which are read; the piped TSV of a plain list is unchanged.
            let json = try blogctl(["list", "--json"], server: mockd.url, sandbox: sandbox)
            let items = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]]
            #expect(items?.first { $0["id"] as? String == ids[1] }?["read"] as? Bool == true)
            #expect(items?.first { $0["id"] as? String == ids[0] }?["read"] as? Bool == false)
            let plain = try blogctl(["list"], server: mockd.url, sandbox: sandbox)
            #expect(plain.lines.allSatisfy { $0.split(separator: "\t", omittingEmptySubsequences: false).count == 5 })

            #expect(try blogctl(["mark", ids[0], ids[2]], server: mockd.url, sandbox: sandbox).status == 0)
            #expect(try blogctl(["mark", "--unread", ids[1]], server: mockd.url, sandbox: sandbox).status == 0)
            let marked = try blogctl(["list", "--unread"], server: mockd.url, sandbox: sandbox)
            #expect(marked.lines.map { String($0.split(separator: "\t")[0]) } == ids.filter { $0 != ids[0] && $0 != ids[2] })
            // Issue 63: marks are rows of the one library, per server.
            let library = sandbox.dataHome + "/blogctl/library.db"
            let connection = try SQLiteFile(library)
            let stored = try connection.alone { db in
                try db.rows("SELECT m.id FROM marks m JOIN sources s ON s.id = m.source WHERE s.key = ? ORDER BY m.id",
                            [.text(try ServerURL(mockd.url).folderName)]).compactMap { $0.values[0].string }
            }
            connection.close()
            #expect(stored == [ids[0], ids[2]].sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
            try await withMockd(["--quiet"] + BlogctlEndToEndTests.fast, sandbox: sandbox) { other in
                let elsewhere = try blogctl(["list", "--unread"], server: other.url, sandbox: sandbox)
                #expect(elsewhere.lines.count == ids.count, "another server's posts are all unread: \(elsewhere.stdout)")
            }
            // Damage is reported in one line naming the file, never overwritten.
            for suffix in ["-wal", "-shm"] { unlink(library + suffix) }
            try "garbage".write(toFile: library, atomically: true, encoding: .utf8)
            let damaged = try blogctl(["mark", ids[3]], server: mockd.url, sandbox: sandbox)
            #expect(damaged.status == 74 && damaged.stderr.contains("damaged") && damaged.stderr.contains(library), "\(damaged.stderr)")
            #expect(try String(contentsOfFile: library, encoding: .utf8) == "garbage")
            // The listing is the library's too: refused the same way, the file left as it is.
            let listed = try blogctl(["list"], server: mockd.url, sandbox: sandbox)
            #expect(listed.status == 74 && listed.stderr.contains(library) && listed.stdout.isEmpty, "\(listed.stderr)")
            #expect(try String(contentsOfFile: library, encoding: .utf8) == "garbage")
        }
    }

    @Test func linksAreNumberedAsReadShowsThemAndOpenHandsOneToTheBrowser() async throws {
        let sandbox = try Sandbox()
        try await withMockd(["--quiet"] + BlogctlEndToEndTests.fast, sandbox: sandbox) { mockd in
            let ids = try blogctl(["list"], server: mockd.url, sandbox: sandbox).lines.map { String($0.split(separator: "\t")[0]) }
            // The first post with links.
            var found: (id: String, links: [String])?
            for id in ids where id != "massive" {
                let run = try blogctl(["links", id], server: mockd.url, sandbox: sandbox)
                let links = run.lines.map { $0.split(separator: "\t").map(String.init) }
                if !links.isEmpty { found = (id, links.map { $0[1] }); break }
            }
            let post = try #require(found)
            let read = try blogctl(["read", "--width", "200", post.id], server: mockd.url, sandbox: sandbox)
            for (index, url) in post.links.enumerated() {
                #expect(read.stdout.contains("[\(index + 1)]") && read.stdout.contains(url), "\(url)")
            }
            // The browser gets the URL as one argument; here, a script that writes it down.
            let browser = try sandbox.write("browser.sh", "#!/bin/sh\nprintf '%s\\n' \"$@\" > \"$(dirname \"$0\")/opened\"\n")
            chmod(browser, 0o755)
            let open = try blogctl(["open", post.id, "1"], server: mockd.url, sandbox: sandbox, environment: ["BROWSER": browser])
            #expect(open.status == 0, "\(open.stderr)")
            #expect(try String(contentsOfFile: sandbox.root + "/opened", encoding: .utf8) == post.links[0] + "\n")
            // A post has no web page: its JSON is never handed to the browser.
            try FileManager.default.removeItem(atPath: sandbox.root + "/opened")
            let itself = try blogctl(["open", post.id], server: mockd.url, sandbox: sandbox, environment: ["BROWSER": browser])
            #expect(itself.status == 65)
            #expect(itself.stderr.contains("has no web page to open, only its \(post.links.count) link"), "\(itself.stderr)")
            #expect(!FileManager.default.fileExists(atPath: sandbox.root + "/opened"))
            let none = try blogctl(["open", post.id, "1"], server: mockd.url, sandbox: sandbox,
                                   environment: ["BROWSER": "", "PATH": "/nonexistent"])
            #expect(none.status == 66 && none.stderr.contains("set BROWSER"), "\(none.stderr)")
            let missing = try blogctl(["open", post.id, "999"], server: mockd.url, sandbox: sandbox, environment: ["BROWSER": browser])
            #expect(missing.status == 65)
        }
    }
}

/// Issue 15: `blogctl search` against mockd with 10,000 generated posts.
@Suite struct BlogctlSearchEndToEndTests {
    func blogctl(_ arguments: [String], server: String, sandbox: Sandbox) throws -> ToolRun {
        try runTool("blogctl", arguments, sandbox: sandbox, environment: ["BLOGCTL_SERVER": server])
    }

    @Test func listedTitlesAndCachedBodiesAreFoundOffline() async throws {
        let sandbox = try Sandbox()
        try await withMockd(["--quiet", "--posts", "10000", "--post-size", "2000"] + BlogctlEndToEndTests.fast, sandbox: sandbox) { mockd in
            #expect(try blogctl(["list"], server: mockd.url, sandbox: sandbox).lines.count > 10_000)
            // Titles: the one post, best first, as TSV when piped.
            let title = try blogctl(["search", "generated", "9876"], server: mockd.url, sandbox: sandbox)
            #expect(title.status == 0, "\(title.stderr)")
            #expect(title.lines.first?.hasPrefix("gen-9876\tGenerated post 9876\t") == true, "\(title.stdout)")
            // A body word is found only once the body is cached; the server is not asked.
            let before = try blogctl(["search", "--json", "load", "tests", "written"], server: mockd.url, sandbox: sandbox)
            #expect(before.status == 1)
            #expect(try blogctl(["read", "gen-42"], server: mockd.url, sandbox: sandbox).status == 0)
            let offline = try blogctl(["search", "--json", "written", "load"], server: mockd.url, sandbox: sandbox)
            #expect(offline.status == 0, "\(offline.stderr)")
            let hits = try JSONSerialization.jsonObject(with: Data(offline.stdout.utf8)) as? [[String: Any]]
            #expect(hits?.map { $0["id"] as? String } == ["gen-42"])
            #expect(hits?.first?["cached"] as? Bool == true)
            // Every command that fetches a body indexes it (issue 48: most by their own parse).
            let links = try blogctl(["links", "gen-43"], server: mockd.url, sandbox: sandbox)
            #expect(links.status == 0 || links.status == 1, "\(links.stderr)")
            #expect(try blogctl(["read", "--json", "gen-44"], server: mockd.url, sandbox: sandbox).status == 0)
            #expect(try blogctl(["read", "--format", "markdown", "gen-45"], server: mockd.url, sandbox: sandbox).status == 0)
            let all = try blogctl(["search", "written", "load"], server: mockd.url, sandbox: sandbox)
            #expect(Set(all.lines.map { String($0.split(separator: "\t")[0]) }) == ["gen-42", "gen-43", "gen-44", "gen-45"],
                    "\(all.stdout)")
            // Cleared from the cache, gone from the index; a damaged index is made anew.
            #expect(try blogctl(["cache", "clear"], server: mockd.url, sandbox: sandbox).status == 0)
            #expect(try blogctl(["search", "written", "load"], server: mockd.url, sandbox: sandbox).status == 1)
            #expect(try blogctl(["read", "gen-7"], server: mockd.url, sandbox: sandbox).status == 0)
            try "garbage".write(toFile: String(BlogctlEndToEndTests.cacheFolder(sandbox, mockd.url).dropLast("posts".count)) + "search.sqlite",
                                atomically: true, encoding: .utf8)
            let rebuilt = try blogctl(["search", "written", "load"], server: mockd.url, sandbox: sandbox)
            #expect(rebuilt.status == 0 && rebuilt.lines.map { String($0.split(separator: "\t")[0]) } == ["gen-7"], "\(rebuilt.stdout)\(rebuilt.stderr)")
            let none = try blogctl(["search", "\"", "*"], server: mockd.url, sandbox: sandbox)
            #expect(none.status == 1 && none.stdout.isEmpty)
        }
    }

    /// A reader that leaves after the first line of a long post (the pipe closes before the
    /// parse is through): the body is indexed all the same.
    @Test func aReaderLeavingEarlyLeavesTheBodyIndexed() async throws {
        let sandbox = try Sandbox()
        try await withMockd(["--quiet", "--posts", "3", "--post-size", "600000"] + BlogctlEndToEndTests.fast, sandbox: sandbox) { mockd in
            // The index made first (a new one would take in every cached body when first opened).
            #expect(try blogctl(["search", "written"], server: mockd.url, sandbox: sandbox).status == 1)
            let head = try runTool("/bin/sh", ["-c", "\"$0\" read gen-2 | head -n 1", Binaries.path("blogctl")], sandbox: sandbox,
                                   environment: ["BLOGCTL_SERVER": mockd.url])
            #expect(head.status == 0 && head.lines.count == 1, "\(head.stderr)")
            let found = try blogctl(["search", "written", "load"], server: mockd.url, sandbox: sandbox)
            #expect(found.status == 0 && found.lines.map { String($0.split(separator: "\t")[0]) } == ["gen-2"], "\(found.stdout)")
        }
    }

    @Test func everyPostPrefetchedThenListedAndSearched() async throws {
        // A reader who cached everything: each later `list` and every body stay in the index.
        // (How an update's cost stays flat as the index grows is checked in SearchIndexTests.)
        let sandbox = try Sandbox()
        try await withMockd(["--quiet", "--posts", "1000", "--post-size", "2000"] + BlogctlEndToEndTests.fast, sandbox: sandbox) { mockd in
            let prefetch = try blogctl(["prefetch", "--jobs", "8"], server: mockd.url, sandbox: sandbox)
            #expect(prefetch.status == 0, "\(prefetch.stderr)")
            for _ in 1...2 { #expect(try blogctl(["list"], server: mockd.url, sandbox: sandbox).lines.count > 1_000) }
            let hits = try blogctl(["search", "--limit", "5000", "written", "load"], server: mockd.url, sandbox: sandbox)
            #expect(hits.lines.count == 1_000, "\(hits.stderr)")
        }
    }
}

/// Issue 39: what blogctl keeps is kept per server, so a search never shows a post the
/// server asked does not have, and one server's post 7 is never read as another's.
extension BlogctlReaderEndToEndTests {
    @Test func eachServerHasItsOwnListingIndexAndCache() async throws {
        let sandbox = try Sandbox()
        try await withMockd(["--quiet", "--latency", "0"], sandbox: sandbox) { plain in
            try await withMockd(["--quiet", "--latency", "0", "--posts", "5"], sandbox: sandbox) { generated in
                #expect(try blogctl(["list"], server: plain.url, sandbox: sandbox).status == 0)
                #expect(try blogctl(["list"], server: generated.url, sandbox: sandbox).status == 0)
                let there = try blogctl(["search", "generated"], server: generated.url, sandbox: sandbox)
                #expect(there.status == 0 && there.lines.count == 5, "\(there.stdout)")
                let here = try blogctl(["search", "generated"], server: plain.url, sandbox: sandbox)
                #expect(here.status == 1 && here.stdout.isEmpty, "only the server asked: \(here.stdout)")
                // --server on a local command picks the server as the variable does.
                let flagged = try blogctl(["search", "--server", generated.url, "generated"], server: plain.url, sandbox: sandbox)
                #expect(flagged.lines.count == 5)
                let offline = try blogctl(["list", "--offline"], server: plain.url, sandbox: sandbox)
                #expect(!offline.stdout.contains("gen-"))
                let paths = Set(try [plain.url, generated.url].map { try blogctl(["cache", "path"], server: $0, sandbox: sandbox).stdout })
                #expect(paths.count == 2)
            }
        }
    }
}
