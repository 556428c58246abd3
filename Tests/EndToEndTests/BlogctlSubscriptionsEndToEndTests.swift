import Foundation
import Testing
import TestSupport

/// Issue 49: subscriptions as newsboat keeps them, and `list` over every feed: mockd's
/// generated feeds, its blog's Atom feed, and one dead feed that must fail alone.
@Suite struct BlogctlSubscriptionsEndToEndTests {
    func blogctl(_ arguments: [String], _ sandbox: Sandbox, stdin: String? = nil) throws -> ToolRun {
        try runTool("blogctl", arguments, stdin: stdin, sandbox: sandbox, environment: ["BLOGCTL_SERVER": "", "TOOLBOX_SERVER": ""])
    }

    @Test func everyFeedListedOneFailingAlone() async throws {
        let sandbox = try Sandbox()
        try await withMockd(["--quiet", "--latency", "0", "--failure-rate", "0", "--massive-size", "0", "--feeds", "3", "--feed-items", "4"],
                            sandbox: sandbox) { mockd in
            // A closed port: connection refused, at once.
            let dead = try StubServer(response: "")
            dead.stop()
            let opml = """
                <?xml version="1.0"?><opml version="2.0"><head><title>mine</title></head><body>
                <outline text="Generated"><outline text="One" xmlUrl="\(mockd.url)/feeds/1.xml"/>
                <outline text="Two" xmlUrl="\(mockd.url)/feeds/2.xml"/></outline>
                <outline text="Three" xmlUrl="\(mockd.url)/feeds/3.xml"/><outline text="no feed"/></body></opml>
                """
            let imported = try blogctl(["feeds", "import", "-"], sandbox, stdin: opml)
            #expect(imported.status == 0 && imported.stderr.contains("imported 3 feeds"), "\(imported.stderr)")
            #expect(try blogctl(["feeds", "add", mockd.url + "/blog", "\(dead.url)/feed.xml"], sandbox).status == 0)
            #expect(try blogctl(["feeds", "add", mockd.url + "/blog"], sandbox).stderr.contains("already subscribed"))

            let list = try blogctl(["list"], sandbox)
            #expect(list.status == 75, "\(list.stderr)")
            #expect(list.lines.count == 3 * 4 + 8, "\(list.stdout)")
            #expect(list.lines.filter { $0.hasPrefix("Two\tfeed-2-item-") }.count == 4)
            #expect(list.lines.filter { $0.hasPrefix("Blog Nerd Ranch\t") }.count == 8, "the page's feed, named by its title")
            #expect(list.stderr.contains("1 of 5 feeds could not be refreshed"), "\(list.stderr)")
            #expect(list.stderr.components(separatedBy: "\n").filter { $0.contains("connection refused") }.count == 1, "\(list.stderr)")

            let grouped = try blogctl(["list", "--group-by", "feed", "--json"], sandbox)
            let posts = try #require(try JSONSerialization.jsonObject(with: Data(grouped.stdout.utf8)) as? [[String: Any]])
            #expect(posts.map { $0["group"] as? String ?? "" } == posts.map { $0["feed"] as? String ?? "-" })
            #expect(Set(posts.compactMap { $0["feed"] as? String }) == ["Blog Nerd Ranch", "One", "Two", "Three"])

            // A post is found in the feed that lists it; reading it marks it read there alone.
            let read = try blogctl(["read", "feed-3-item-2", "--no-pager"], sandbox)
            #expect(read.status == 0, "\(read.stderr)")
            let feeds = try blogctl(["feeds"], sandbox)
            #expect(feeds.lines.contains { $0.hasPrefix("Three\t\(mockd.url)/feeds/3.xml\t4\t3\t") }, "\(feeds.stdout)")
            #expect(feeds.lines.contains { $0.hasPrefix("Two\t\(mockd.url)/feeds/2.xml\t4\t4\t") }, "\(feeds.stdout)")
            #expect(feeds.lines.last?.hasSuffix("connection refused (\(dead.url)/feed.xml)") == true, "\(feeds.stdout)")

            // Offline, the same list from the cache.
            let offline = try blogctl(["list", "--offline"], sandbox)
            #expect(offline.lines == list.lines)

            // Exported and imported elsewhere: the same subscriptions, folders as tags.
            let exported = try blogctl(["feeds", "export"], sandbox)
            #expect(exported.status == 0 && exported.stdout.contains("<opml version=\"2.0\">"))
            let other = try Sandbox()
            #expect(try runTool("blogctl", ["feeds", "import", "-"], stdin: exported.stdout, sandbox: other).status == 0)
            let urls = try String(contentsOfFile: sandbox.root + "/config/blogctl/urls", encoding: .utf8)
            #expect(urls.contains("/feeds/1.xml\" ~One\" Generated") || urls.contains("/feeds/1.xml ~One Generated"), "\(urls)")
            let otherURLs = try String(contentsOfFile: other.root + "/config/blogctl/urls", encoding: .utf8)
            // The same subscriptions; OPML puts each folder's feeds together.
            #expect(otherURLs.split(separator: "\n").dropFirst().sorted() == urls.split(separator: "\n").dropFirst().sorted())

            #expect(try blogctl(["feeds", "remove", "Two", "\(dead.url)/feed.xml"], sandbox).status == 0)
            let after = try blogctl(["list"], sandbox)
            #expect(after.status == 0 && after.lines.count == 2 * 4 + 8, "\(after.stderr)")
            #expect(try blogctl(["feeds", "remove", "Two"], sandbox).status != 0)
        }
    }
}
