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
            // A feed taken down: asked once, then known dead.
            let gone = try StubServer(response: "HTTP/1.1 410 Gone\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            defer { gone.stop() }
            // A plain-http feed that says it moved for good to another origin: not followed.
            let mover = try StubServer(response: "HTTP/1.1 301 Moved Permanently\r\nLocation: \(mockd.url)/feed.json\r\n"
                + "Content-Length: 0\r\nConnection: close\r\n\r\n")
            defer { mover.stop() }
            let opml = """
                <?xml version="1.0"?><opml version="2.0"><head><title>mine</title></head><body>
                <outline text="Generated"><outline text="One" xmlUrl="\(mockd.url)/feeds/1.xml"/>
                <outline text="Two" xmlUrl="\(mockd.url)/feeds/2.xml"/></outline>
                <outline text="Three" xmlUrl="\(mockd.url)/feeds/3.xml"/><outline text="no feed"/></body></opml>
                """
            let imported = try blogctl(["feeds", "import", "-"], sandbox, stdin: opml)
            #expect(imported.status == 0 && imported.stderr.contains("imported 3 feeds"), "\(imported.stderr)")
            // Asked first (not --force), the forged move is not read as the feed either.
            let probed = try blogctl(["feeds", "add", "\(mover.url)/old.xml"], sandbox)
            #expect(probed.status != 0 && probed.stderr.contains("says it moved permanently to \(mockd.url)/feed.json; not followed"),
                    "\(probed.stderr)")
            #expect(try blogctl(["feeds", "add", "--force", mockd.url + "/blog", "\(dead.url)/feed.xml", "\(gone.url)/feed.xml", "\(mover.url)/old.xml",
                                           mockd.url + "/feed.json"],
                                sandbox).status == 0)
            #expect(try blogctl(["feeds", "add", mockd.url + "/blog"], sandbox).stderr.contains("already subscribed"))

            let list = try blogctl(["list"], sandbox)
            #expect(list.status == 75, "\(list.stderr)")
            #expect(list.lines.count == 3 * 4 + 8 + 8, "\(list.stdout)")
            #expect(list.lines.filter { $0.hasPrefix("Two\tfeed-2-item-") }.count == 4)
            #expect(list.lines.filter { $0.hasPrefix("Blog Nerd Ranch\t") }.count == 8, "the page's feed, named by its title")
            #expect(list.lines.filter { $0.hasPrefix("Blog Nerd Ranch (2)\t") }.count == 8, "a second feed of the same title, told apart")
            #expect(list.lines.filter { $0.hasPrefix("Blog Nerd Ranch (3)\t") }.isEmpty, "what the forged move's target answered is not listed")
            #expect(list.stderr.contains("2 of 8 feeds could not be refreshed"), "\(list.stderr)")
            // Issue 64: a plain-http feed moving to another origin (another port here) is not
            // followed on its word: said once, kept pending, the subscription left as it was, and
            // what the new URL answered is not read as the feed (nor listed under it).
            #expect(list.stderr.components(separatedBy: "says it moved permanently to \(mockd.url)/feed.json; not followed").count == 2,
                    "\(list.stderr)")
            let moved = try String(contentsOfFile: sandbox.root + "/config/blogctl/urls", encoding: .utf8)
            #expect(moved.components(separatedBy: mockd.url + "/feed.json").count == 2 && moved.contains(mover.url + "/old.xml"), "\(moved)")
            let pending = try blogctl(["feeds"], sandbox)
            #expect(pending.stdout.contains("says it moved permanently to \(mockd.url)/feed.json"), "\(pending.stdout)")
            let askedMover = mover.requests.count
            let askedGone = gone.requests.count
            #expect(askedGone == 1)
            #expect(list.stderr.components(separatedBy: "\n").filter { $0.contains("connection refused") }.count == 1, "\(list.stderr)")

            let grouped = try blogctl(["list", "--group-by", "feed", "--json"], sandbox)
            let posts = try #require(try JSONSerialization.jsonObject(with: Data(grouped.stdout.utf8)) as? [[String: Any]])
            #expect(posts.map { $0["group"] as? String ?? "" } == posts.map { $0["feed"] as? String ?? "-" })
            #expect(Set(posts.compactMap { $0["feed"] as? String }) == ["Blog Nerd Ranch", "Blog Nerd Ranch (2)", "One", "Two", "Three"])
            // Issue 65: by tag, the feeds of the folder "Generated" in one group, the untagged in
            // another, named "", first; the FEED column stays in the table.
            let byTag = try blogctl(["list", "--group-by", "tag", "--offline"], sandbox)
            let tagged = byTag.lines.map { ($0.split(separator: "\t", omittingEmptySubsequences: false).first.map(String.init) ?? "",
                                             $0.split(separator: "\t", omittingEmptySubsequences: false).dropFirst().first.map(String.init) ?? "") }
            #expect(byTag.status == 0 && tagged.count == list.lines.count, "\(byTag.stdout)\(byTag.stderr)")
            #expect(tagged.allSatisfy { ($0.0 == "Generated") == ["One", "Two"].contains($0.1) }, "\(tagged)")
            #expect(tagged.first?.0 == "" && tagged.last?.0 == "Generated", "\(tagged)")

            // A post is found in the feed that lists it; reading it marks it read there alone.
            let read = try blogctl(["read", "feed-3-item-2", "--no-pager"], sandbox)
            #expect(read.status == 0, "\(read.stderr)")
            // Two feeds with one title keep their own marks: post 6 read in the page's alone.
            #expect(try runTool("blogctl", ["read", "6", "--no-pager", "--server", mockd.url + "/blog"], sandbox: sandbox).status == 0)
            let marked = try #require(try JSONSerialization.jsonObject(with: Data(try blogctl(["list", "--json", "--offline"], sandbox).stdout.utf8))
                as? [[String: Any]])
            let sixes = marked.filter { $0["id"] as? String == "6" }.map { ($0["feed"] as? String ?? "", $0["read"] as? Bool ?? false) }
            #expect(sixes.sorted { $0.0 < $1.0 }.map(\.1) == [true, false], "\(sixes)")
            let feeds = try blogctl(["feeds"], sandbox)
            #expect(feeds.lines.contains { $0.hasPrefix("Three\t\(mockd.url)/feeds/3.xml\t4\t3\t") }, "\(feeds.stdout)")
            #expect(feeds.lines.contains { $0.hasPrefix("Two\t\(mockd.url)/feeds/2.xml\t4\t4\t") }, "\(feeds.stdout)")
            #expect(feeds.lines.contains { $0.hasSuffix("connection refused (\(dead.url)/feed.xml)") }, "\(feeds.stdout)")
            #expect(feeds.lines.contains { $0.contains("gone (410)") }, "\(feeds.stdout)")

            // Offline, the same list from the cache.
            let offline = try blogctl(["list", "--offline"], sandbox)
            #expect(offline.lines == list.lines)
            let again = try blogctl(["list"], sandbox)
            // The pending move is asked again at the subscribed URL (until the user follows it),
            // and said once.
            #expect(!again.stderr.contains("moved permanently") && mover.requests.count > askedMover, "said once: \(again.stderr)")

            // Exported and imported elsewhere: the same subscriptions, folders as tags.
            let exported = try blogctl(["feeds", "export"], sandbox)
            #expect(exported.status == 0 && exported.stdout.contains("<opml version=\"2.0\">"))
            let other = try Sandbox()
            #expect(try runTool("blogctl", ["feeds", "import", "-"], stdin: exported.stdout, sandbox: other).status == 0)
            let urls = try String(contentsOfFile: sandbox.root + "/config/blogctl/urls", encoding: .utf8)
            #expect(urls.contains(mockd.url + "/feeds/1.xml ~One Generated\n"), "folders as tags: \(urls)")
            let otherURLs = try String(contentsOfFile: other.root + "/config/blogctl/urls", encoding: .utf8)
            // The same subscriptions (OPML puts each folder's feeds together), each named as
            // `feeds` names it here: a feed with no name of its own by its title as fetched; one
            // never fetched (the dead one, the mover) by its URL, which reads back as no name.
            let named = urls.split(separator: "\n").dropFirst().map { line in
                line.hasSuffix("/blog") || line.hasSuffix("/feed.json") ? line + " \"~Blog Nerd Ranch\"" : line
            }
            #expect(otherURLs.split(separator: "\n").dropFirst().sorted() == named.sorted())

            #expect(try blogctl(["feeds", "remove", "Two", "\(dead.url)/feed.xml"], sandbox).status == 0)
            let after = try blogctl(["list"], sandbox)
            #expect(after.status == 0 && after.lines.count == 2 * 4 + 8 + 8, "\(after.stderr)")
            #expect(gone.requests.count == askedGone, "a dead feed is not asked again")
            #expect(try blogctl(["feeds", "remove", "Two"], sandbox).status != 0)
        }
    }

    /// Issue 65: newsboat's command feeds from the urls file, as newsboat runs them: an
    /// `exec:` command's output is the feed, a `filter:` command reads the fetched feed; each
    /// listed, named, read and searched as any feed; a failing command named in its row.
    @Test func execAndFilterFeedsRunAsNewsboatRunsThem() async throws {
        let sandbox = try Sandbox()
        try await withMockd(["--quiet", "--latency", "0", "--failure-rate", "0", "--feeds", "1", "--feed-items", "3"], sandbox: sandbox) { mockd in
            let document = """
                <?xml version="1.0"?><rss version="2.0"><channel><title>Made by a command</title>
                <item><guid>cmd-1</guid><title>First commanded entry</title><link>https://cmd.example/1</link>
                <description>Text from a script</description></item></channel></rss>
                """
            let feed = try sandbox.write("made.xml", document)
            try FileManager.default.createDirectory(atPath: sandbox.root + "/config/blogctl", withIntermediateDirectories: true)
            _ = try sandbox.write("config/blogctl/urls", """
                "exec:cat '\(feed)'" tools
                "filter:sed 's/Generated feed 1/Filtered feed/':\(mockd.url)/feeds/1.xml"
                "exec:echo 'the script is broken' >&2; exit 4" ~Broken

                """)
            let listed = try blogctl(["list"], sandbox)
            #expect(listed.status == 75, "\(listed.stderr)")
            #expect(listed.lines.contains { $0.hasPrefix("Made by a command\tcmd-1\t") && $0.contains("First commanded entry") }, "\(listed.stdout)")
            #expect(listed.lines.filter { $0.hasPrefix("Filtered feed\tfeed-1-item-") }.count == 3, "\(listed.stdout)")
            #expect(listed.stderr.contains("Broken: the command exited with status 4: the script is broken"), "\(listed.stderr)")
            let feeds = try blogctl(["feeds"], sandbox)
            #expect(feeds.lines.contains { $0.hasPrefix("Made by a command\texec:cat '\(feed)'\t1\t1\t") }, "\(feeds.stdout)")
            #expect(feeds.lines.contains { $0.hasPrefix("Broken\texec:echo") && $0.hasSuffix("the command exited with status 4: the script is broken") },
                    "\(feeds.stdout)")
            // Read, searched and listed offline from the library, as any feed's entries.
            let read = try blogctl(["read", "cmd-1", "--no-pager"], sandbox)
            #expect(read.status == 0 && read.stdout.contains("Text from a script") && read.stdout.contains("Link: https://cmd.example/1"), "\(read.stderr)")
            #expect(try blogctl(["search", "commanded"], sandbox).lines.first?.hasPrefix("Made by a command\tcmd-1\t") == true)
            #expect(try blogctl(["list", "--offline", "--tag", "tools"], sandbox).lines.count == 1)
            // A command is no feed another reader can fetch: left out of an export, said.
            let exported = try blogctl(["feeds", "export"], sandbox)
            #expect(exported.status == 0 && !exported.stdout.contains("exec:") && !exported.stdout.contains("filter:"), "\(exported.stdout)")
            #expect(exported.stderr.contains("3 exec: or filter: feeds are left out of the export"), "\(exported.stderr)")
        }
    }

    @Test func searchAndPrefetchCoverEveryFeed() async throws {
        let sandbox = try Sandbox()
        try await withMockd(["--quiet", "--latency", "0", "--failure-rate", "0", "--massive-size", "0", "--feeds", "2", "--feed-items", "3"],
                            sandbox: sandbox) { mockd in
            let dead = try StubServer(response: "")
            dead.stop()
            #expect(try blogctl(["feeds", "add", mockd.url + "/feeds/1.xml", mockd.url + "/feeds/2.xml", mockd.url + "/feed.atom"], sandbox).status == 0)
            // Issue 63: each feed was read as it was added: its entries are found before any list.
            #expect(try blogctl(["search", "proof"], sandbox).status == 0)
            #expect(try blogctl(["list"], sandbox).status == 0)

            // Every feed's index, a FEED field first; a title match before a body match.
            let found = try blogctl(["search", "proof"], sandbox)
            #expect(found.status == 0, "\(found.stderr)")
            #expect(!found.lines.isEmpty && found.lines.allSatisfy { $0.hasPrefix("Generated feed 1\t") || $0.hasPrefix("Generated feed 2\t") },
                    "\(found.stdout)")
            // mockd's generated feeds are seeded: "proof" is in some titles and some bodies alone.
            let byTitle = try #require(found.lines.firstIndex { $0.split(separator: "\t")[2].lowercased().contains("proof") }, "\(found.stdout)")
            let byBody = try #require(found.lines.firstIndex { !$0.split(separator: "\t")[2].lowercased().contains("proof") }, "\(found.stdout)")
            #expect(byTitle < byBody, "\(found.stdout)")
            let json = try blogctl(["search", "dijkstra", "--json", "--limit", "2"], sandbox)
            let hits = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
            #expect(hits.count == 2 && hits.allSatisfy { $0["feed"] as? String == "Blog Nerd Ranch" }, "\(json.stdout)")
            // A server named: that one alone, as before.
            let one = try runTool("blogctl", ["search", "dijkstra", "--server", mockd.url + "/feed.atom"], sandbox: sandbox)
            #expect(one.status == 0 && !one.stdout.contains("Blog Nerd Ranch"), "\(one.stdout)")

            // prefetch: every feed's bodies (kept by list: fresh), a feed that fails fails alone.
            #expect(try blogctl(["feeds", "add", "--force", dead.url + "/feed.xml"], sandbox).status == 0)
            let prefetched = try blogctl(["prefetch"], sandbox)
            #expect(prefetched.status == 75, "\(prefetched.stderr)")
            #expect(prefetched.lines.count == 3 + 3 + 8, "\(prefetched.stdout)")
            #expect(prefetched.lines.filter { $0.hasPrefix("Generated feed 2\tfeed-2-item-") }.count == 3)
            #expect(prefetched.lines.allSatisfy { $0.split(separator: "\t")[2] == "fresh" }, "\(prefetched.stdout)")
            #expect(prefetched.stderr.contains("connection refused") && prefetched.stderr.contains("1 of 4 feeds could not be listed"))
        }
    }
}
