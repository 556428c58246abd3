import Foundation
import Testing
import TestSupport

/// Issue 49: `blogctl ui` with subscriptions opens on newsboat's first screen, the feed list,
/// in a real terminal: refreshed at once, one dead feed failing alone, Enter for a feed's
/// entries, the same reader, q back to the feeds with the counts as reading left them.
@Suite struct BlogctlFeedUIEndToEndTests {
    let noServer = ["BLOGCTL_SERVER": "", "TOOLBOX_SERVER": ""]

    @Test func theFeedListOpensAFeedReadsAnEntryAndComesBack() async throws {
        let sandbox = try Sandbox()
        try await withMockd(["--quiet", "--latency", "0", "--failure-rate", "0", "--massive-size", "0", "--feeds", "2", "--feed-items", "3"],
                            sandbox: sandbox) { mockd in
            let dead = try StubServer(response: "")
            dead.stop()
            let added = try runTool("blogctl", ["feeds", "add", "--force", mockd.url + "/feeds/1.xml", mockd.url + "/feeds/2.xml", dead.url + "/dead.xml"],
                                    sandbox: sandbox, environment: noServer)
            #expect(added.status == 0, "\(added.stderr)")
            let tmux = try TmuxSession(command: Binaries.path("blogctl"), arguments: ["ui"], sandbox: sandbox, environment: noServer)
            defer { tmux.kill() }
            // Refreshed on opening: the titles the feeds give, and the dead one's error.
            let feeds = try tmux.waitForScreen { $0.contains("1 of 3 feeds failed") && $0.contains("Generated feed 2") }
            let lines = feeds.split(separator: "\n").map(String.init)
            #expect(lines[0].contains("blogctl › feeds") && feeds.contains("3 feeds · 6 unread"), "\(feeds)")
            #expect(lines[1].hasPrefix(" • Generated feed 1") && lines[1].hasSuffix("3 unread of 3"), "\(feeds)")
            #expect(lines[3].hasPrefix(" ! ") && lines[3].contains("connection refused"), "\(feeds)")

            // The first feed's entries, its newest read in the same reader as the API's posts.
            try tmux.send("Enter")
            _ = try tmux.waitForScreen { $0.contains("blogctl › Generated feed 1 (date)") && $0.contains("3 posts · 3 unread") }
            try tmux.send("Enter")
            _ = try tmux.waitForScreen { $0.contains("verification function") && $0.contains("By Author 1") }
            try tmux.send("Escape")
            _ = try tmux.waitForScreen { $0.contains("3 posts · 2 unread") }
            try tmux.send("q")
            let back = try tmux.waitForScreen { $0.contains("blogctl › feeds") && $0.contains("2 unread of 3") }
            #expect(back.contains("3 feeds · 5 unread"), "\(back)")
            try tmux.send("q")
            _ = try tmux.waitForScreen { $0.contains("EXITED 0") }

            // The mark is the feed's own, as blogctl feeds and list see it.
            let table = try runTool("blogctl", ["feeds"], sandbox: sandbox, environment: noServer)
            #expect(table.lines.contains { $0.hasPrefix("Generated feed 1\t\(mockd.url)/feeds/1.xml\t3\t2\t") }, "\(table.stdout)")
            #expect(table.lines.contains { $0.hasPrefix("Generated feed 2\t\(mockd.url)/feeds/2.xml\t3\t3\t") }, "\(table.stdout)")

            // Issue 65: `/` then Enter searches every feed's entries; a hit is read in its feed.
            let again = try TmuxSession(command: Binaries.path("blogctl"), arguments: ["ui"], sandbox: sandbox, environment: noServer)
            defer { again.kill() }
            _ = try again.waitForScreen { $0.contains("1 of 3 feeds failed") }
            try again.send("/")
            try again.send("proof")
            try again.send("Enter")
            let hits = try again.waitForScreen { $0.contains("search every feed: proof") && $0.contains(" found") }
            #expect(hits.contains("Generated feed 1 · ") || hits.contains("Generated feed 2 · "), "\(hits)")
            try again.send("Enter")
            _ = try again.waitForScreen { $0.contains("By Author") }
            try again.send("q")
            _ = try again.waitForScreen { $0.contains("blogctl › Generated feed") && $0.contains("3 posts") }
            try again.send("q")
            _ = try again.waitForScreen { $0.contains("search every feed: proof") }
            try again.send("Escape")
            _ = try again.waitForScreen { $0.contains("blogctl › feeds") && $0.contains("/proof") }
            try again.send("Escape")
            try again.send("q")
            _ = try again.waitForScreen { $0.contains("EXITED 0") }
        }
    }

    /// Issue 63: a feed opened while the feed list's startup refresh is asking it joins that
    /// request: one request for the feed, and the entries it answered on both screens.
    @Test func aFeedOpenedDuringTheStartupRefreshJoinsItsRequest() async throws {
        let sandbox = try Sandbox()
        let feed = """
            <?xml version="1.0"?><rss version="2.0"><channel><title>Held feed</title>
            <item><guid>one</guid><title>First entry</title></item><item><guid>two</guid><title>Second entry</title></item>
            </channel></rss>
            """
        let stub = try StubServer(response: "HTTP/1.1 200 OK\r\nContent-Type: application/rss+xml\r\nContent-Length: \(feed.utf8.count)\r\n"
                                  + "Connection: close\r\n\r\n" + feed)
        defer { stub.stop() }
        stub.hold()
        try FileManager.default.createDirectory(atPath: sandbox.root + "/config/blogctl", withIntermediateDirectories: true)
        _ = try sandbox.write("config/blogctl/urls", stub.url + "/held.xml\n")
        let tmux = try TmuxSession(command: Binaries.path("blogctl"), arguments: ["ui"], sandbox: sandbox, environment: noServer)
        defer { tmux.kill() }
        // The refresh's request is in flight (held) when the feed is opened.
        _ = try tmux.waitForScreen { $0.contains("blogctl › feeds") && stub.requests.count == 1 }
        try tmux.send("Enter")
        _ = try tmux.waitForScreen { $0.contains("blogctl › ") && !$0.contains("blogctl › feeds") }
        stub.release()
        let entries = try tmux.waitForScreen { $0.contains("First entry") && $0.contains("Second entry") }
        #expect(entries.contains("2 posts"), "\(entries)")
        try tmux.send("q")
        _ = try tmux.waitForScreen { $0.contains("Held feed") && $0.contains("2 unread of 2") }
        #expect(stub.requests.count == 1, "\(stub.requests)")
        try tmux.send("q")
        _ = try tmux.waitForScreen { $0.contains("EXITED 0") }
    }
}
