import Foundation
import Testing
import TestSupport
import BlogctlEngines

/// Issue 65: a podcast's episode, from the feed to a file, through the real binary: `read`
/// shows it and numbers it among the links, `enclosures` lists it from the library,
/// `download` fetches it into the folder (resuming the part a quit left), `--json` carries it.
@Suite(.serialized) struct BlogctlEnclosureEndToEndTests {
    /// Printable bytes: the stub server's answers are strings.
    static let episode: [UInt8] = (0..<300_000).map { (index: Int) -> UInt8 in UInt8(0x21 + (index &* 131 &+ 17) % 90) }

    func blogctl(_ arguments: [String], _ server: String, _ sandbox: Sandbox) throws -> ToolRun {
        try runTool("blogctl", arguments, sandbox: sandbox, environment: ["BLOGCTL_SERVER": server])
    }

    static func answer(_ status: String, _ headers: [String], _ body: [UInt8]) -> [UInt8] {
        Array(("HTTP/1.1 \(status)\r\n" + (headers + ["Content-Length: \(body.count)", "Connection: close"]).map { $0 + "\r\n" }.joined()
            + "\r\n").utf8) + body
    }

    @Test func anEpisodeFromFeedToFile() throws {
        let feed = """
            <?xml version="1.0"?><rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd">
            <channel><title>Cast</title><item><title>Episode One</title><guid isPermaLink="false">ep1</guid>
            <description>&lt;p&gt;Notes with &lt;a href="https://notes.example/"&gt;a link&lt;/a&gt;&lt;/p&gt;</description>
            <enclosure url="/media/episode%201.mp3" length="\(Self.episode.count)" type="audio/mpeg"/>
            <itunes:duration>12:34</itunes:duration></item></channel></rss>
            """
        // The feed at /feed.xml, the episode beside it; every other path (the API's) a 404.
        let stub = try StubServer(bytes: Self.answer("404 Not Found", [], []), others: [
            "/feed.xml": String(decoding: Self.answer("200 OK", ["Content-Type: application/rss+xml"], Array(feed.utf8)), as: UTF8.self),
            "/media/": String(decoding: Self.answer("200 OK", ["Content-Type: audio/mpeg"], Self.episode), as: UTF8.self),
        ])
        defer { stub.stop() }
        let server = stub.url + "/feed.xml"
        let file = stub.url + "/media/episode%201.mp3"
        let sandbox = try Sandbox()
        let read = try blogctl(["read", "ep1", "--no-pager"], server, sandbox)
        let page: String = read.stdout
        #expect(read.status == 0, "\(read.stderr)")
        #expect(page.contains("Enclosure: " + file + " (audio/mpeg, 300.0 kB, 12:34)"), "\(page)")
        #expect(page.contains("[1] https://notes.example/\n[2] " + file + "\n"), "\(page)")
        let links = try blogctl(["links", "ep1"], server, sandbox)
        #expect(links.stdout == "1\thttps://notes.example/\n2\t\(file)\n", "\(links.stdout)")
        let json = try blogctl(["list", "--json"], server, sandbox)
        let entries = try #require(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        let enclosure = try #require((entries.first?["enclosures"] as? [[String: Any]])?.first)
        #expect(enclosure["url"] as? String == file && enclosure["length"] as? Int == Self.episode.count && enclosure["duration"] as? Int == 754)
        let listed = try blogctl(["enclosures"], server, sandbox)
        #expect(listed.status == 0 && listed.stdout == "ep1\tEpisode One\t300.0 kB\t12:34\taudio/mpeg\t\(file)\n", "\(listed.stdout) \(listed.stderr)")

        // A quit left half of it: the next download asks for the rest, and says the path.
        let folder = sandbox.root + "/Podcasts"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let fetched = try blogctl(["download", "ep1", "-o", folder], server, sandbox)
        #expect(fetched.status == 0, "\(fetched.stderr)")
        #expect(fetched.stdout == folder + "/episode 1.mp3\n", "\(fetched.stdout)")
        #expect(FileManager.default.contents(atPath: folder + "/episode 1.mp3").map(Array.init) == Self.episode)
        let nothing = try blogctl(["download"], server, sandbox)
        #expect(nothing.status == 0 && nothing.stdout.isEmpty, "\(nothing.stdout) \(nothing.stderr)")
    }

    /// A download whose server fails stays queued, and `download` alone resumes it from the
    /// part a quit left, with a Range request; a post that carries nothing says so.
    @Test func aFailedDownloadStaysQueuedAndResumes() throws {
        let half = Self.episode.count / 2
        let media = try StubServer(sequence: [
            String(decoding: Self.answer("503 Service Unavailable", [], Array("later".utf8)), as: UTF8.self),
            String(decoding: Self.answer("206 Partial Content", ["Content-Range: bytes \(half)-\(Self.episode.count - 1)/\(Self.episode.count)"],
                                         Array(Self.episode[half...])), as: UTF8.self),
        ])
        defer { media.stop() }
        let feed = """
            <rss version="2.0"><channel><title>Cast</title>
            <item><title>Two</title><guid>ep2</guid><enclosure url="\(media.url)/media/two.ogg" type="audio/ogg"/></item>
            <item><title>Text</title><guid>t1</guid></item></channel></rss>
            """
        let feeds = try StubServer(bytes: Self.answer("404 Not Found", [], []), others: [
            "/feed.xml": String(decoding: Self.answer("200 OK", ["Content-Type: application/rss+xml"], Array(feed.utf8)), as: UTF8.self),
        ])
        defer { feeds.stop() }
        let sandbox = try Sandbox()
        let folder = sandbox.root + "/dl"
        let listed = try blogctl(["list"], feeds.url + "/feed.xml", sandbox)
        #expect(listed.status == 0, "\(listed.stderr)")
        let first = try blogctl(["download", "ep2", "t1", "-o", folder, "--retries", "0"], feeds.url + "/feed.xml", sandbox)
        #expect(first.status != 0 && first.stderr.contains("still queued") && first.stderr.contains("carries no file"), "\(first.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/two.ogg"))
        // Half of it arrived before (as a quit leaves it): the next run asks for the rest.
        #expect(FileManager.default.createFile(atPath: folder + "/two.ogg.part", contents: Data(Self.episode[..<half])))
        let resumed = try blogctl(["download"], feeds.url + "/feed.xml", sandbox)
        #expect(resumed.status == 0 && resumed.stdout == folder + "/two.ogg\n", "\(resumed.stdout.debugDescription) \(folder.debugDescription) \(resumed.stderr)")
        #expect(media.requests.last?.contains("Range: bytes=\(half)-") == true, "\(media.requests)")
        #expect(FileManager.default.contents(atPath: folder + "/two.ogg").map(Array.init) == Self.episode)
        #expect(!FileManager.default.fileExists(atPath: folder + "/two.ogg.part"))
    }
}

/// Issue 65: `list --filter` in newsboat's filter language, through the real binary: online,
/// offline, over every subscription with their tags; a mistake names its column.
@Suite struct BlogctlFilterEndToEndTests {
    @Test func listKeepsWhatTheFilterKeeps() async throws {
        try await withMockd(["--quiet", "--latency", "0", "--failure-rate", "0", "--massive-size", "0"], sandbox: try Sandbox()) { mockd in
            let sandbox = try Sandbox()
            let server = mockd.url + "/feed.atom"
            func list(_ arguments: [String]) throws -> ToolRun {
                try runTool("blogctl", ["list"] + arguments, sandbox: sandbox, environment: ["BLOGCTL_SERVER": server])
            }
            let all = try list([])
            let authors = all.lines.map { $0.split(separator: "\t", omittingEmptySubsequences: false)[2] }
            let ada = try list(["--filter", "author =~ \"^ada\" and title !~ \"notes\""])
            #expect(ada.status == 0 && !ada.lines.isEmpty, "\(ada.stderr)")
            #expect(ada.lines.allSatisfy { $0.contains("\tAda Lovelace\t") && !$0.lowercased().contains("notes") }, "\(ada.stdout)")
            #expect(ada.lines.count < authors.filter { $0 == "Ada Lovelace" }.count)
            let offline = try list(["--offline", "--filter", "author =~ \"^ada\" and title !~ \"notes\""])
            #expect(offline.stdout == ada.stdout)
            let none = try list(["--filter", "unread = \"no\""])
            #expect(none.status == 0 && none.stdout.isEmpty)
            let wrong = try list(["--filter", "title = \"x\" or auhtor = y"])
            #expect(wrong.status == 64 && wrong.stderr.contains("column 16: unknown attribute \"auhtor\""), "\(wrong.stderr)")
            // Over every subscription: the feed's tags from the urls file.
            try FileManager.default.createDirectory(atPath: sandbox.root + "/config/blogctl", withIntermediateDirectories: true)
            _ = FileManager.default.createFile(atPath: sandbox.root + "/config/blogctl/urls",
                                           contents: Data(("\(mockd.url)/feed.atom tech \"~Atom\"\n\(mockd.url)/feed.rss news\n"
                                                + "\"query:Ada's:author =~ \\\"^ada\\\" and tags # \\\"news\\\"\" people\n\"query:Broken:titel = x\"\n").utf8))
            let tagged = try runTool("blogctl", ["list", "--filter", "tags # \"tech\""], sandbox: sandbox)
            #expect(tagged.status == 0 && !tagged.lines.isEmpty && tagged.lines.allSatisfy { $0.hasPrefix("Atom\t") }, "\(tagged.stdout) \(tagged.stderr)")
            #expect(tagged.stderr.contains("query feed \"Broken\": column 1: unknown attribute \"titel\""), "\(tagged.stderr)")
            // A query feed of the urls file: the entries of every subscription it keeps.
            let query = try runTool("blogctl", ["list", "--query", "Ada's", "--offline"], sandbox: sandbox)
            #expect(query.status == 0 && !query.lines.isEmpty, "\(query.stderr)")
            #expect(query.lines.allSatisfy { !$0.hasPrefix("Atom\t") && $0.contains("\tAda Lovelace\t") }, "\(query.stdout)")
            let feeds = try runTool("blogctl", ["feeds"], sandbox: sandbox)
            #expect(feeds.lines.contains { $0.hasPrefix("Ada's\tquery:Ada's\t\(query.lines.count)\t\(query.lines.count)\t") }, "\(feeds.stdout)")
            // In ui, the query feed is a row after the feeds; Enter lists its entries, each read
            // in its own feed.
            let tmux = try TmuxSession(command: Binaries.path("blogctl"), arguments: ["ui"], sandbox: sandbox, environment: [:], columns: 100, rows: 30)
            defer { tmux.kill() }
            _ = try tmux.waitForScreen { $0.contains("Ada's") && $0.contains("\(query.lines.count) unread of \(query.lines.count)") }
            try tmux.send("G")
            try tmux.send("Enter")
            let listed = try tmux.waitForScreen { $0.contains("query feed: Ada's") && $0.contains("\(query.lines.count) entries") }
            #expect(listed.contains("Ada Lovelace") && !listed.contains("Atom ·"), "\(listed)")
            try tmux.send("Enter")
            _ = try tmux.waitForScreen { $0.contains("By Ada Lovelace") }
            try tmux.send("q")
            try tmux.send("q")
            _ = try tmux.waitForScreen { $0.contains("query feed: Ada's") }
            try tmux.send("Escape")
            try tmux.send("q")
            _ = try tmux.waitForScreen { $0.contains("EXITED 0") }
            // --tag: the subscriptions with the tag alone.
            let news = try runTool("blogctl", ["list", "--tag", "news", "--offline"], sandbox: sandbox)
            #expect(news.status == 0 && !news.lines.isEmpty && news.lines.allSatisfy { !$0.hasPrefix("Atom\t") }, "\(news.stdout) \(news.stderr)")
            let noTag = try runTool("blogctl", ["list", "--tag", "sport", "--offline"], sandbox: sandbox)
            #expect(noTag.status != 0 && noTag.stderr.contains("\"news\", \"tech\""), "\(noTag.stderr)")
            let unknown = try runTool("blogctl", ["list", "--query", "Nope"], sandbox: sandbox)
            #expect(unknown.status != 0 && unknown.stderr.contains("query feed \"Nope\"") && unknown.stderr.contains("\"Ada's\""), "\(unknown.stderr)")
        }
    }
}
