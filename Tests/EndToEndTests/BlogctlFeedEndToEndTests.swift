import CoreKit
import Foundation
import Testing
import TestSupport

/// Issue 49: `--server` takes a feed, or a page naming one, and every command reads its
/// entries as the API's posts: mockd serves the blog both ways, so each feed is checked
/// against the API's own answers.
@Suite struct BlogctlFeedEndToEndTests {
    func blogctl(_ arguments: [String], _ server: String, _ sandbox: Sandbox) throws -> ToolRun {
        try runTool("blogctl", arguments, sandbox: sandbox, environment: ["BLOGCTL_SERVER": server])
    }

    func listed(_ run: ToolRun) throws -> [[String: Any]] {
        try #require(JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
    }

    /// `prefetch` of a feed takes every body from the one fetch of the feed, stored unless
    /// the cache holds it: each entry asked of the feed on its own was quadratic (a feed of
    /// 5,000 entries did not end in a minute). The feed asked once a run, every entry said once.
    @Test func prefetchOfAFeedAsksItOnce() throws {
        let items = (0..<3000).map { "<item><guid>e\($0)</guid><title>t\($0)</title><description>&lt;p&gt;body \($0)&lt;/p&gt;</description></item>" }
        let feed = "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>t</title>" + items.joined() + "</channel></rss>"
        let stub = try StubServer(response: "HTTP/1.1 200 OK\r\nContent-Type: application/rss+xml\r\nContent-Length: \(feed.utf8.count)\r\n"
            + "Connection: close\r\n\r\n" + feed)
        defer { stub.stop() }
        let sandbox = try Sandbox()
        let first = try blogctl(["prefetch", "--max-size", "14"], stub.url + "/rss", sandbox)
        #expect(first.status == 0, "\(first.stderr)")
        // The API's listing asked first (the server is not yet known as a feed), then the feed.
        #expect(stub.requests.count == 2, "\(stub.requests)")
        // Bodies of 13 and 14 bytes are fetched, those of 15 skipped ("<p>body 1000</p>" is 16).
        let outcomes = Dictionary(grouping: first.lines.map { $0.split(separator: "\t").map(String.init) }, by: { $0[1] })
        #expect(first.lines.count == 3000 && outcomes["fetched"]?.count == 100 && outcomes["skipped"]?.count == 2900,
                "\(outcomes.mapValues(\.count))")
        let second = try blogctl(["prefetch"], stub.url + "/rss", sandbox)
        #expect(stub.requests.count == 3, "\(stub.requests)")
        let again = Dictionary(grouping: second.lines.map { $0.split(separator: "\t").map(String.init) }, by: { $0[1] })
        #expect(again["fresh"]?.count == 100 && again["fetched"]?.count == 2900, "\(again.mapValues(\.count))")
        let read = try blogctl(["read", "e2999", "--offline", "--no-pager"], stub.url + "/rss", sandbox)
        #expect(read.status == 0 && read.stdout.contains("body 2999"), "\(read.stderr)")
    }

    /// Every format, and the page that links to them, lists, shows and reads as the API does.
    @Test func everyFormatReadsAsTheAPI() async throws {
        try await withMockd(["--quiet", "--latency", "0", "--failure-rate", "0", "--massive-size", "0"], sandbox: try Sandbox()) { mockd in
            let apiSandbox = try Sandbox()
            let api = try listed(try blogctl(["list", "--json"], mockd.url, apiSandbox))
            let apiRead = try blogctl(["read", "6", "--no-pager"], mockd.url, apiSandbox)
            #expect(apiRead.status == 0)
            for path in ["/feed.rss", "/feed.atom", "/feed.json", "/blog"] {
                let sandbox = try Sandbox()
                let server = mockd.url + path
                let run = try blogctl(["list", "--json"], server, sandbox)
                #expect(run.status == 0, "\(path): \(run.stderr)")
                #expect(run.stderr.isEmpty, "\(path): \(run.stderr)")
                let entries = try listed(run)
                #expect(entries.count == api.count, "\(path)")
                for (entry, post) in zip(entries, api) {
                    for key in ["id", "title", "publishDate", "summary"] {
                        #expect(entry[key] as? String == post[key] as? String, "\(path) \(key)")
                    }
                    #expect((entry["author"] as? [String: Any])?["name"] as? String == (post["author"] as? [String: Any])?["name"] as? String)
                    #expect(entry["link"] as? String == mockd.url + "/blog/" + (post["id"] as? String ?? ""), "\(path): an absolute link")
                }
                // The body is the feed's, rendered as the API's: only the author's title, which
                // a feed does not carry, is missing from the header; the entry's page is a
                // `Link:` line under it, numbered after the body's links.
                let page = mockd.url + "/blog/6"
                let read = try blogctl(["read", "6", "--no-pager"], server, sandbox)
                #expect(read.status == 0, "\(path): \(read.stderr)")
                let headerLines: [String] = ["", "Link: " + page]
                let expected: [String] = headerLines + apiRead.lines.dropFirst(4).map(String.init) + ["[2] " + page]
                #expect(read.lines.dropFirst(4).map(String.init) == expected, "\(path)")
                #expect(read.lines.prefix(3) == apiRead.lines.prefix(3), "\(path)")
                let show = try blogctl(["show", "6"], server, sandbox)
                #expect(show.status == 0 && show.stdout.contains("link\t" + page), "\(path): \(show.stderr)")
                let links = try blogctl(["links", "6"], server, sandbox)
                #expect(links.stdout == (try blogctl(["links", "6"], mockd.url, apiSandbox)).stdout + "2\t" + page + "\n", "\(path)")
            }
        }
    }

    /// Found once, then remembered: the next run asks the feed alone, conditionally, and an
    /// unchanged feed (304) is the saved list; everything works offline from what list kept.
    @Test func anUnchangedFeedIsOneConditionalRequest() async throws {
        let sandbox = try Sandbox()
        try await withMockd(["--latency", "0", "--failure-rate", "0", "--massive-size", "0"], sandbox: sandbox, tailLog: true) { mockd in
            let server = mockd.url + "/feed.atom"
            let first = try blogctl(["list"], server, sandbox)
            #expect(first.status == 0, "\(first.stderr)")
            let before = mockd.tail?.lines.count ?? 0
            let second = try blogctl(["list"], server, sandbox)
            #expect(second.stdout == first.stdout)
            let lines = Array(mockd.tail?.lines.dropFirst(before) ?? [])
            #expect(lines.count == 1 && lines.first?.hasPrefix("GET /feed.atom 304") == true, "\(lines)")
            let offline = try blogctl(["read", "3", "--offline", "--no-pager"], server, sandbox)
            #expect(offline.status == 0 && offline.stdout.contains("Go To Statement"), "\(offline.stderr)")
            let search = try blogctl(["search", "apollo"], server, sandbox)
            #expect(search.status == 0 && search.lines.first?.hasPrefix("4\t") == true, "\(search.stdout) \(search.stderr)")
            let listedOffline = try blogctl(["list", "--offline"], server, sandbox)
            #expect(listedOffline.stdout == first.stdout)
        }
    }

    /// Piped, the list goes out as it is made while the newest bodies are stored beside it: a
    /// reader that leaves after one line (`| head -n 1`) ends the output, not the storing. The
    /// run exits 0, and the newest 1,000 entries (and no older one) read offline.
    @Test func aReaderLeavingEarlyLeavesTheNewestBodiesStored() async throws {
        let sandbox = try Sandbox()
        try await withMockd(["--quiet", "--latency", "0", "--failure-rate", "0", "--massive-size", "0", "--feeds", "1", "--feed-items", "3000"],
                            sandbox: sandbox) { mockd in
            let server = mockd.url + "/feeds/1.xml"
            let piped = try runTool("blogctl", ["-c", "set -o pipefail; \"$0\" list | head -n 1", Binaries.path("blogctl")], sandbox: sandbox,
                                    environment: ["BLOGCTL_SERVER": server], executable: "/bin/bash")
            #expect(piped.status == 0, "\(piped.stderr)")
            #expect(piped.lines.count == 1 && piped.stdout.hasPrefix("feed-1-item-3000\t"), "\(piped.stdout)")
            let newest = try blogctl(["read", "feed-1-item-2001", "--offline", "--no-pager"], server, sandbox)
            #expect(newest.status == 0, "\(newest.stderr)")
            let older = try blogctl(["read", "feed-1-item-2000", "--offline", "--no-pager"], server, sandbox)
            #expect(older.status != 0)
        }
    }

    /// A feed's URL may have a query (`?feed=rss2`, as WordPress's have): blogctl keeps it for
    /// the feed and its own cache folder, where every API tool still refuses one.
    @Test func aFeedURLWithAQueryIsReadAndAnAPIToolRefusesOne() async throws {
        let sandbox = try Sandbox()
        try await withMockd(["--quiet", "--latency", "0", "--failure-rate", "0", "--massive-size", "0"], sandbox: sandbox) { mockd in
            let listed = try blogctl(["list"], mockd.url + "/feed.rss?utm_source=test", sandbox)
            #expect(listed.status == 0 && listed.lines.count == 8, "\(listed.stderr)")
            let subscribed = try runTool("blogctl", ["feeds", "add", mockd.url + "/feed.atom?x=1"], sandbox: sandbox,
                                         environment: ["BLOGCTL_SERVER": "", "TOOLBOX_SERVER": ""])
            #expect(subscribed.status == 0, "\(subscribed.stderr)")
            let refreshed = try runTool("blogctl", ["list"], sandbox: sandbox, environment: ["BLOGCTL_SERVER": "", "TOOLBOX_SERVER": ""])
            #expect(refreshed.status == 0 && refreshed.lines.count == 8, "\(refreshed.stderr)")
            let condtest = try runTool("condtest", ["list", "--server", mockd.url + "/?a=1"], sandbox: sandbox)
            #expect(condtest.status == 64 && condtest.stderr.contains("no query or fragment"), "\(condtest.stderr)")
        }
    }

    /// A feed is asked for gzipped, as newsboat and feedparser ask, and read inflated; a gzip
    /// body that inflates past the largest answer (a bomb), a damaged one, or an encoding not
    /// asked for is an error naming the feed, never a crash or a wrong list.
    @Test func gzipIsAskedForReadAndABadOneRefused() throws {
        let rss = Array("""
            <?xml version="1.0"?><rss version="2.0"><channel><title>Zipped</title>
            <item><title>Packed tight</title><guid>z1</guid><pubDate>Mon, 02 Mar 2026 10:00:00 GMT</pubDate></item></channel></rss>
            """.utf8)
        func answer(_ body: [UInt8], encoding: String = "gzip") -> [UInt8] {
            Array("HTTP/1.1 200 OK\r\nContent-Type: application/rss+xml\r\nContent-Encoding: \(encoding)\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n".utf8) + body
        }
        let sandbox = try Sandbox()
        let zipped = try StubServer(bytes: answer(Gzip.compress(rss)))
        defer { zipped.stop() }
        let listed = try blogctl(["list"], zipped.url + "/feed.xml", sandbox)
        #expect(listed.status == 0 && listed.stdout.hasPrefix("z1\t2026-03-02T10:00:00Z\t\tPacked tight"), "\(listed.stdout) \(listed.stderr)")
        // The API's path first (the stub answers it with the feed too), then the feed, gzip asked for.
        #expect(zipped.requests.contains { $0.hasPrefix("GET /feed.xml ") && $0.lowercased().contains("accept-encoding: gzip") }, "\(zipped.requests)")

        // 8 MiB of zeros, 8 KiB gzipped, against a 1 MiB cap on any answer.
        let bomb = try StubServer(bytes: answer(Gzip.compress([UInt8](repeating: 0, count: 8 << 20))))
        defer { bomb.stop() }
        let exploded = try runTool("blogctl", ["list"], sandbox: sandbox,
                                   environment: ["BLOGCTL_SERVER": bomb.url + "/feed.xml", "TOOLBOX_MAX_RESPONSE": "1M"])
        #expect(exploded.status != 0 && exploded.stdout.isEmpty && exploded.stderr.contains("gzip body"), "\(exploded.stderr)")
        var damaged = Gzip.compress(rss)
        damaged[damaged.count - 6] ^= 0xFF  // the CRC
        let broken = try StubServer(bytes: answer(damaged))
        defer { broken.stop() }
        let corrupt = try blogctl(["list"], broken.url + "/feed.xml", sandbox)
        #expect(corrupt.status != 0 && corrupt.stderr.contains("gzip body") && corrupt.stderr.contains(broken.url), "\(corrupt.stderr)")
        let brotli = try StubServer(bytes: answer(rss, encoding: "br"))
        defer { brotli.stop() }
        let unknown = try blogctl(["list"], brotli.url + "/feed.xml", sandbox)
        #expect(unknown.status != 0 && unknown.stderr.contains("encoding \"br\""), "\(unknown.stderr)")
    }

    /// A hostile, broken feed is data: no external entity is read, a date that cannot be read is
    /// unknown (never a wrong one), a `javascript:` link is no link, and the damage is one warning
    /// naming the feed.
    @Test func aHostileBrokenFeedIsData() throws {
        let feed = """
            <?xml version="1.0"?>
            <!DOCTYPE rss [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
            <rss version="2.0"><channel><title>t</title>
            <item><title>A &xxe; B</title><guid>one</guid><description>x &amp; y</description>
            <link>javascript:alert(1)</link><pubDate>Tue, 03 Jun 2008 11:05:30 GMT</pubDate></item>
            <item><title>Two &amp; more</title><guid>two</guid><pubDate>soon</pubDate>
            <description>&lt;p&gt;body&lt;/p&gt;</description></item>
            </channel>
            """
        let stub = try StubServer(response: "HTTP/1.1 200 OK\r\nContent-Type: application/rss+xml\r\nContent-Length: \(feed.utf8.count)\r\n"
            + "Connection: close\r\n\r\n" + feed)
        defer { stub.stop() }
        let sandbox = try Sandbox()
        let list = try blogctl(["list", "--json"], stub.url + "/rss", sandbox)
        #expect(list.status == 0, "\(list.stderr)")
        #expect(!list.stdout.contains("root:") && !list.stderr.contains("root:"))
        #expect(list.stderr.components(separatedBy: "ill-formed feed").count == 2, "one warning: \(list.stderr)")
        let warning = list.stderr.split(separator: "\n").first { $0.contains("ill-formed feed") } ?? ""
        #expect(warning.hasSuffix(")"), "its parenthesis closed: \(warning)")
        #expect(list.stderr.contains(stub.url + "/rss"))
        let entries = try listed(list)
        #expect(entries.map { $0["id"] as? String } == ["one", "two"])
        #expect(entries.first?["publishDate"] as? String == "2008-06-03T11:05:30Z")
        #expect(entries.last?["publishDate"] == nil, "unknown, not made up")
        #expect(entries.first?["link"] == nil)
        let table = try blogctl(["list"], stub.url + "/rss", sandbox)
        #expect(table.lines.last?.hasPrefix("two\t\t") == true, "\(table.stdout)")
        let open = try runTool("blogctl", ["open", "one"], sandbox: sandbox,
                               environment: ["BLOGCTL_SERVER": stub.url + "/rss", "BROWSER": "/bin/false"])
        #expect(open.status == 65, "\(open.stderr)")
    }

    /// A feed reached through a temporary redirect resolves its relative links against where
    /// it came from (feedparser's base), while the subscription keeps the URL it was given.
    @Test func aTemporaryRedirectsTargetIsTheBase() throws {
        let rss = """
            <?xml version="1.0"?><rss version="2.0"><channel><title>Moved about</title><link>./</link>
            <item><title>One</title><guid>one</guid><link>posts/1.html</link>
            <description>&lt;p&gt;See &lt;a href="../img/a.png"&gt;a&lt;/a&gt;&lt;/p&gt;</description></item>
            </channel></rss>
            """
        let feed = "HTTP/1.1 200 OK\r\nContent-Type: application/rss+xml\r\nContent-Length: \(rss.utf8.count)\r\nConnection: close\r\n\r\n" + rss
        let server = try StubServer(response: "HTTP/1.1 302 Found\r\nLocation: /real/blog/feed.xml\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
                                    others: ["/real/": feed])
        defer { server.stop() }
        let sandbox = try Sandbox()
        let run = try blogctl(["list", "--json"], server.url + "/feed", sandbox)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try listed(run).first?["link"] as? String == server.url + "/real/blog/posts/1.html", "\(run.stdout)")
        let links = try blogctl(["links", "one"], server.url + "/feed", sandbox)
        #expect(links.stdout.contains(server.url + "/real/img/a.png"), "\(links.stdout) \(links.stderr)")
        // Asked again at the URL given: a temporary redirect moves nothing.
        #expect(try blogctl(["list"], server.url + "/feed", sandbox).status == 0)
        #expect(server.requests.filter { $0.hasPrefix("GET /feed ") }.count >= 2, "\(server.requests)")
    }
}
