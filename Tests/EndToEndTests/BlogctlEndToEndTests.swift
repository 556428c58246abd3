import Foundation
import Testing
import ToolboxKit
import TestSupport

@Suite struct BlogctlEndToEndTests {
    /// A small, fast massive post unless a test needs it slow.
    static let fast = ["--latency", "0", "--massive-size", "300000", "--massive-rate", "100000000"]

    func blogctl(_ arguments: [String], server: String, sandbox: Sandbox, environment: [String: String] = [:]) throws -> ToolRun {
        try runTool("blogctl", arguments, sandbox: sandbox, environment: ["BLOGCTL_SERVER": server].merging(environment) { $1 })
    }

    /// The post cache of `server`: blogctl keeps one per server.
    static func cacheFolder(_ sandbox: Sandbox, _ server: String) -> String {
        sandbox.cacheHome + "/blogctl/servers/" + (try! ServerURL(server)).folderName + "/posts"
    }

    func cacheFolder(_ sandbox: Sandbox, _ server: String) -> String { Self.cacheFolder(sandbox, server) }

    func cacheFiles(_ sandbox: Sandbox, _ server: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: cacheFolder(sandbox, server))) ?? []).sorted()
    }

    /// The requests mockd logged, as "METHOD PATH STATUS".
    func requests(_ mockd: MockdProcess) -> [String] {
        mockd.log.split(separator: "\n").map { $0.split(separator: " ").prefix(3).joined(separator: " ") }
    }

    @Test func listNeverTouchesPostBodies() async throws {
        let sandbox = try Sandbox()
        try await withMockd(Self.fast, sandbox: sandbox, tailLog: true) { mockd in
            for arguments in [["list"], ["list", "--group-by", "author"], ["list", "--group-by", "month", "--sort-by", "title", "--reverse"],
                              ["list", "--json"]] {
                let run = try blogctl(arguments, server: mockd.url, sandbox: sandbox)
                #expect(run.status == 0, "\(arguments): \(run.stderr)")
            }
            mockd.tail?.wait(for: 4) { $0.hasPrefix("GET /post-metadata") }
            let seen = requests(mockd)
            #expect(seen.count == 4)
            #expect(seen.allSatisfy { $0 == "GET /post-metadata 200" }, "\(seen)")
        }
    }

    @Test func listPipedGroupedByMonth() async throws {
        let sandbox = try Sandbox()
        try await withMockd(Self.fast, sandbox: sandbox) { mockd in
            let run = try blogctl(["list", "--group-by", "month"], server: mockd.url, sandbox: sandbox)
            #expect(run.status == 0)
            let rows = run.lines.map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
            #expect(rows.allSatisfy { $0.count == 6 })
            #expect(rows.map(\.[0]).uniqued() == ["August 2018", "July 2018", "June 2018"])
            #expect(rows.first?[1] == "massive", "newest first inside the month")
            #expect(rows.first { $0[1] == "7" }?[4] == "On the Cruelty of Really Teaching Computing Science")
            #expect(run.stderr.isEmpty)
        }
    }

    @Test func listJSONCarriesTheGroup() async throws {
        let sandbox = try Sandbox()
        try await withMockd(Self.fast, sandbox: sandbox) { mockd in
            let run = try blogctl(["list", "--group-by", "author", "--sort-by", "title", "--json"], server: mockd.url, sandbox: sandbox)
            let items = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
            #expect(items.count == 9)
            #expect(items.first?["group"] as? String == "Ada Lovelace")
            #expect(items.first?["title"] as? String == "bernoulli numbers, step by step")
            #expect(items.compactMap { $0["group"] as? String }.uniqued() == ["Ada Lovelace", "Edsger Dijkstra", "Grace Hopper", "Margaret Hamilton"])
        }
    }

    @Test func showResolvesTheImageAgainstTheServer() async throws {
        let sandbox = try Sandbox()
        try await withMockd(Self.fast, sandbox: sandbox) { mockd in
            let run = try blogctl(["show", "7"], server: mockd.url, sandbox: sandbox)
            #expect(run.status == 0)
            #expect(run.lines.contains("post id\tp-007"))
            #expect(run.lines.contains("image\t\(mockd.url)/images/authors/edsger.jpg"))
            let missing = try blogctl(["show", "nope"], server: mockd.url, sandbox: sandbox)
            #expect(missing.status == 66)
            #expect(missing.stderr == "blogctl: post \"nope\" not found\n")
        }
    }

    @Test func readRendersCachesAndRevalidates() async throws {
        let sandbox = try Sandbox()
        try await withMockd(Self.fast, sandbox: sandbox, tailLog: true) { mockd in
            let first = try blogctl(["read", "7"], server: mockd.url, sandbox: sandbox)
            #expect(first.status == 0, "\(first.stderr)")
            #expect(first.stdout.hasPrefix("On the Cruelty of Really Teaching Computing Science\n"))
            #expect(first.stdout.contains("By Edsger Dijkstra, Professor of Computing Science · 2018-08-15 16:40"))
            #expect(first.stdout.contains("        Radical novelty demands orthogonal thinking."))
            #expect(first.stdout.split(separator: "\n").allSatisfy { $0.count <= 80 }, "80 columns when piped")
            // The post's id and its post id differ: the cache is keyed by the id the reader uses.
            #expect(cacheFiles(sandbox, mockd.url) == ["7.html.gz", "7.json"])
            // --max-age 0: asked again, and the server stands by the copy.
            let second = try blogctl(["read", "7", "-v", "--max-age", "0"], server: mockd.url, sandbox: sandbox)
            #expect(second.stdout == first.stdout)
            #expect(second.stderr.contains("< 304 Not Modified"))
            #expect(second.stderr.contains("* body from revalidated"))
            // Issue 47: within the freshness window (300 s by default) the copy is shown at once,
            // as the screen shows it, with no request at all.
            let third = try blogctl(["read", "7", "-v"], server: mockd.url, sandbox: sandbox)
            #expect(third.stdout == first.stdout)
            #expect(third.stderr.contains("* body from fresh") && !third.stderr.contains("> GET"), "\(third.stderr)")
            // BLOGCTL_MAX_AGE and config.yml's max-age: set it too.
            let variable = try blogctl(["read", "7", "-v"], server: mockd.url, sandbox: sandbox, environment: ["BLOGCTL_MAX_AGE": "0"])
            #expect(variable.stderr.contains("* body from revalidated"), "\(variable.stderr)")
            mockd.tail?.wait(for: 3) { $0.hasPrefix("GET /post/p-007") }
            let posts = requests(mockd).filter { $0.hasPrefix("GET /post/") }
            #expect(posts == ["GET /post/p-007 200", "GET /post/p-007 304", "GET /post/p-007 304"])
        }
    }

    /// Issue 47: a listed post's id may be shortened to its start, as git takes a short hash,
    /// for `show` and `read`; a start several ids share names them.
    @Test func theStartOfAListedIdNamesItsPost() async throws {
        let sandbox = try Sandbox()
        let data = try BlogData.write(sandbox.root + "/data", ["c0ffee01aa", "c0ffee02bb", "deadbeef77"].map { ($0, "Post \($0)", "2018-06-04T09:30:00Z") })
        try await withMockd(Self.fast + ["--data", data], sandbox: sandbox) { mockd in
            #expect(try blogctl(["list"], server: mockd.url, sandbox: sandbox).status == 0)
            let read = try blogctl(["read", "dead"], server: mockd.url, sandbox: sandbox)
            #expect(read.status == 0 && read.stdout.contains("body of deadbeef77"), "\(read.stderr)")
            let show = try blogctl(["show", "c0ffee02"], server: mockd.url, sandbox: sandbox)
            #expect(show.status == 0 && show.lines.contains("id\tc0ffee02bb"), "\(show.stderr)")
            let ambiguous = try blogctl(["read", "c0ffee"], server: mockd.url, sandbox: sandbox)
            #expect(ambiguous.status == 64 && ambiguous.stderr == "blogctl: ambiguous id \"c0ffee\": 2 posts start with it (c0ffee01aa, c0ffee02bb)\n",
                    "\(ambiguous.stderr)")
        }
    }

    /// Issue 47: after `list`, `read` asks the server once: the listing gives the post id, so
    /// no `GET /post-metadata` goes before `GET /post`.
    @Test func readAfterListAsksOnce() async throws {
        let sandbox = try Sandbox()
        try await withMockd(Self.fast, sandbox: sandbox, tailLog: true) { mockd in
            #expect(try blogctl(["list"], server: mockd.url, sandbox: sandbox).status == 0)
            let read = try blogctl(["read", "4", "-v"], server: mockd.url, sandbox: sandbox)
            #expect(read.status == 0, "\(read.stderr)")
            let asked = read.stderr.split(separator: "\n").filter { $0.hasPrefix("> GET") }
            #expect(asked.count == 1 && asked[0].contains("/post/"), "\(read.stderr)")
        }
    }


    @Test func formats() async throws {
        let sandbox = try Sandbox()
        try await withMockd(Self.fast, sandbox: sandbox) { mockd in
            let markdown = try blogctl(["read", "3", "--format", "markdown"], server: mockd.url, sandbox: sandbox)
            #expect(markdown.stdout.hasPrefix("# Go To Statement Considered Harmful\n"))
            #expect(markdown.stdout.contains("[metadata](\(mockd.url)/post-metadata/3)"))
            let html = try blogctl(["read", "3", "--format", "html"], server: mockd.url, sandbox: sandbox)
            #expect(html.stdout == (try String(contentsOfFile: Binaries.dataDirectory + "/blog/bodies/3.html", encoding: .utf8)))
            let narrow = try blogctl(["read", "3", "--width", "40"], server: mockd.url, sandbox: sandbox)
            // Every line fits but the link list: a URL is never broken.
            #expect(narrow.stdout.split(separator: "\n").filter { !$0.hasPrefix("[") }.allSatisfy { $0.count <= 40 })
            #expect(narrow.stdout.contains("Links:\n[1] \(mockd.url)/post/3#why\n[2] \(mockd.url)/post-metadata/3\n"))
            let plain = try blogctl(["read", "8"], server: mockd.url, sandbox: sandbox)
            #expect(plain.stdout.contains("\n\nWhen I first came up with the term, no one took it seriously, least of all the\nhardware engineers. It was a bit of a joke for a long time.\n\n"))
        }
    }

    @Test func offlineReadsOnlyTheCache() async throws {
        let sandbox = try Sandbox()
        let (online, dead) = try await withMockd(Self.fast, sandbox: sandbox) { mockd in
            (try blogctl(["read", "4"], server: mockd.url, sandbox: sandbox), mockd.url)
        }
        // mockd is gone (its URL answers no more): the cached post still reads, by id or by
        // post id; the other does not.
        let offline = try blogctl(["read", "4", "--offline"], server: dead, sandbox: sandbox)
        #expect(offline.status == 0)
        #expect(offline.stdout == online.stdout)
        let missing = try blogctl(["read", "5", "--offline"], server: dead, sandbox: sandbox)
        #expect(missing.status == 66)
        #expect(missing.stderr == "blogctl: post 5 is not in the cache; read it once online, or run blogctl prefetch\n")
        // Online with the server down, a cached post past its freshness is shown with a warning.
        let fallback = try blogctl(["read", "4", "--retries", "0", "--max-age", "0"], server: dead, sandbox: sandbox)
        #expect(fallback.status == 0)
        #expect(fallback.stdout == online.stdout)
        #expect(fallback.stderr.contains("showing the cached copy"))
        let down = try blogctl(["read", "5", "--retries", "0"], server: dead, sandbox: sandbox)
        #expect(down.status == 69)
    }


    @Test func ctrlCDuringADownloadLeavesTheCacheWhole() async throws {
        let sandbox = try Sandbox()
        try await withMockd(["--latency", "0", "--massive-size", "3000000", "--massive-rate", "100000"], sandbox: sandbox, tailLog: true) { mockd in
            #expect(try blogctl(["read", "2"], server: mockd.url, sandbox: sandbox).status == 0)
            let before = cacheFiles(sandbox, mockd.url)
            let process = try startTool("blogctl", ["read", "massive"], sandbox: sandbox, environment: ["BLOGCTL_SERVER": mockd.url])
            // The body has started to arrive (30 s of it at this rate): interrupt.
            mockd.tail?.wait(for: 1) { $0.hasPrefix("GET /post/massive 200") }
            process.interrupt()
            process.waitUntilExit()
            #expect((process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGINT)
                    || process.terminationStatus == 130)
            #expect(cacheFiles(sandbox, mockd.url) == before, "no partial entry, no temporary file")
            let again = try blogctl(["read", "2", "--offline"], server: mockd.url, sandbox: sandbox)
            #expect(again.status == 0)
        }
    }

    @Test func progressIsDrawnOnTheTerminalNeverOnStdout() async throws {
        let sandbox = try Sandbox()
        try await withMockd(["--quiet", "--latency", "0", "--massive-size", "600000", "--massive-rate", "200000"], sandbox: sandbox) { mockd in
            let output = sandbox.root + "/massive.txt"
            let script = sandbox.root + "/read.sh"
            try "#!/bin/sh\n'\(Binaries.path("blogctl"))' read massive > '\(output)'\n".write(toFile: script, atomically: true, encoding: .utf8)
            chmod(script, 0o755)
            let tmux = try TmuxSession(command: script, sandbox: sandbox, environment: ["BLOGCTL_SERVER": mockd.url, "TERM": "xterm"])
            defer { tmux.kill() }
            // stderr is the terminal: the bar with bytes and rate shows while the body arrives.
            let during = try tmux.waitForScreen { $0.contains("%") && $0.contains("/s") }
            #expect(during.contains("post massive"))
            let after = try tmux.waitForScreen { $0.contains("EXITED 0") }
            #expect(!after.contains("%"), "the bar is cleared")
            let text = try String(contentsOfFile: output, encoding: .utf8)
            #expect(text.hasPrefix("The Complete Collected Letters, Unabridged\n"))
            #expect(!text.contains("\r") && !text.contains("\u{1B}") && !text.contains("█") && !text.contains("⠋"))
        }
    }

    @Test func prefetchSkipsLargeBodiesThenFindsEverythingFresh() async throws {
        let sandbox = try Sandbox()
        try await withMockd(Self.fast, sandbox: sandbox, tailLog: true) { mockd in
            let first = try blogctl(["prefetch", "--jobs", "3", "--max-size", "100K"], server: mockd.url, sandbox: sandbox)
            #expect(first.status == 0, "\(first.stderr)")
            let results = Dictionary(uniqueKeysWithValues: first.lines.map { line in
                let fields = line.split(separator: "\t")
                return (String(fields[0]), String(fields[1]))
            })
            #expect(results.count == 9)
            #expect(results["massive"] == "skipped")
            #expect(results.filter { $0.value == "fetched" }.count == 8)
            #expect(!cacheFiles(sandbox, mockd.url).contains("massive.html.gz"))
            let second = try blogctl(["prefetch", "--max-size", "100K"], server: mockd.url, sandbox: sandbox)
            #expect(second.lines.filter { $0.contains("\tskipped\t") || $0.contains("\tfresh\t") }.count == 9)
            // The fresh ones cost a HEAD each, no body.
            mockd.tail?.wait(for: 18) { $0.hasPrefix("HEAD /post/") }
            #expect(requests(mockd).filter { $0.hasPrefix("GET /post/") }.count == 8)
            // Everything but the massive post now reads offline.
            #expect(try blogctl(["read", "7", "--offline"], server: mockd.url, sandbox: sandbox).status == 0)
        }
    }

    @Test func avatarDownloadsTheAuthorsImage() async throws {
        let sandbox = try Sandbox()
        try await withMockd(Self.fast, sandbox: sandbox) { mockd in
            let path = sandbox.root + "/ada.jpg"
            let run = try blogctl(["avatar", "1", "-o", path], server: mockd.url, sandbox: sandbox)
            #expect(run.status == 0)
            let expected = try Data(contentsOf: URL(fileURLWithPath: Binaries.dataDirectory + "/blog/images/authors/ada.jpg"))
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == expected)
        }
    }



    @Test func onlyAnEmptyIdIsRefusedBeforeAnyRequest() async throws {
        let sandbox = try Sandbox()
        let run = try blogctl(["read", ""], server: "http://127.0.0.1:9", sandbox: sandbox)
        #expect(run.status == 64)
        #expect(run.stderr == "blogctl: invalid post id \"\": it is empty\n")
        // Any other id is encoded as one path segment.
        let traversal = try blogctl(["read", "../../etc/passwd"], server: "http://127.0.0.1:9", sandbox: sandbox)
        #expect(traversal.status == 69)
        #expect(traversal.stderr.contains("/post-metadata/..%2F..%2Fetc%2Fpasswd)"), "\(traversal.stderr)")
    }

    @Test func hostileServerTextIsSanitised() async throws {
        let sandbox = try Sandbox()
        let data = sandbox.root + "/hostile"
        try FileManager.default.createDirectory(atPath: data + "/blog/bodies", withIntermediateDirectories: true)
        let metadata = """
            [{"id": "h1", "postId": "h1", "title": "Evil\\u001b[2J\\u009b31m title", "publishDate": "2018-08-01T00:00:00Z",
              "summary": "tab\\there\\nnewline \\u0007bell", "author": {"name": "Mal\\u001b]0;x\\u0007lory", "image": "/images/authors/m.jpg", "title": "Hacker"}},
             {"id": "../../etc/passwd", "postId": "x", "title": "bad id", "publishDate": "2018-08-01T00:00:00Z",
              "summary": "", "author": {"name": "A", "image": "/i.jpg", "title": ""}}]
            """
        try metadata.write(toFile: data + "/blog/posts.json", atomically: true, encoding: .utf8)
        try "<p>body &#155;31m \u{1B}[5m blink <a href=\"java\u{1B}script:x\">l</a></p>".write(toFile: data + "/blog/bodies/h1.html", atomically: true, encoding: .utf8)
        try "<p>x</p>".write(toFile: data + "/blog/bodies/x.html", atomically: true, encoding: .utf8)
        try await withMockd(["--quiet", "--latency", "0", "--data", data], sandbox: sandbox) { mockd in
            // An id like a path is only an id: listed, and never a path on disk.
            let list = try blogctl(["list"], server: mockd.url, sandbox: sandbox)
            #expect(list.status == 0)
            #expect(list.lines.contains { $0.hasPrefix("../../etc/passwd\t") }, "\(list.stdout)")
            let traversal = try blogctl(["read", "../../etc/passwd", "--no-pager"], server: mockd.url, sandbox: sandbox)
            #expect(traversal.status == 0, "\(traversal.stderr)")
            #expect(FileManager.default.fileExists(atPath: cacheFolder(sandbox, mockd.url) + "/%2E.%2F..%2Fetc%2Fpasswd.json"), "\(cacheFiles(sandbox, mockd.url))")
            let read = try blogctl(["read", "h1"], server: mockd.url, sandbox: sandbox)
            #expect(read.status == 0)
            let shown = try blogctl(["show", "h1"], server: mockd.url, sandbox: sandbox)
            for text in [read.stdout, shown.stdout, list.stderr] {
                #expect(!text.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n" && $0 != "\t") || (0x7F...0x9F).contains($0.value) })
            }
            #expect(read.stdout.contains("Evil[2J31m title"))
        }
    }
}

extension Array where Element: Hashable {
    /// The elements in order, each once.
    func uniqued() -> [Element] {
        var seen = Set<Element>()
        return filter { seen.insert($0).inserted }
    }
}
