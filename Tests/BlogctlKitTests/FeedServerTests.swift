import Foundation
import Testing
import Synchronization
import TestSupport
import ToolboxKit
@testable import BlogctlKit
@testable import BlogctlEngines

/// Issue 63: `FeedServer`'s states as unit tests, against a scripted server on loopback: the
/// API-or-feed decision, a page naming its feed, the conditional GET and its 304, a permanent
/// move, and a feed gone for good.
@Suite struct FeedServerTests {
    typealias Home = LibraryTests.Home

    static func rss(_ ids: [String]) -> String {
        "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>Stub Feed</title>"
            + ids.map { "<item><title>Title \($0)</title><guid>\($0)</guid><description>&lt;p&gt;Body \($0)&lt;/p&gt;</description></item>" }.joined()
            + "</channel></rss>"
    }

    static func answer(_ status: String, _ headers: [String] = [], _ body: String = "") -> String {
        "HTTP/1.1 \(status)\r\n" + (headers + ["Content-Length: \(body.utf8.count)", "Connection: close"]).map { $0 + "\r\n" }.joined()
            + "\r\n" + body
    }

    static let feed = answer("200 OK", ["Content-Type: application/rss+xml", "ETag: \"e1\""], rss(["a", "b", "c"]))

    /// One run of a command: a client of `url`, as `list` makes it. Its deadline is no test:
    /// in the whole suite the shared threads are held by CPU-bound tests for a minute at the
    /// start, and the request's hops can wait behind them past a short deadline (CI saw these
    /// tests time out at 60 s, as APIClientTests did before them).
    func run<T: Sendable>(_ url: String, _ home: Home, subscribed: Bool = false,
                          _ body: @escaping @Sendable (BlogClient) async throws -> T) async throws -> T {
        try await APIClient.using(server: try ServerURL(url, allowingQuery: true), timeout: 3_600, retries: 2) { api in
            let client = BlogClient(api: api, warn: { _ in }, environment: home.environment)
            if subscribed { client.assumeFeed() }
            return try await body(client)
        }
    }

    func paths(_ server: StubServer) -> [String] {
        server.requests.map { String($0.split(separator: " ")[1]) }
    }

    /// Where the API's path is missing, the URL is asked what it is, once; the library
    /// remembers a feed, and the next run asks the feed alone, conditionally.
    @Test func theAPIOrFeedDecisionIsMadeOnceAndRemembered() async throws {
        let home = Home()
        let server = try StubServer(response: Self.feed, others: ["/blog.xml/": Self.answer("404 Not Found")])
        defer { server.stop() }
        let url = server.url + "/blog.xml"
        let posts = try await run(url, home) { client in try await client.metadataList() }
        #expect(posts.map(\.id) == ["a", "b", "c"])
        #expect(paths(server).first == "/blog.xml/post-metadata" && paths(server).dropFirst().allSatisfy { $0 == "/blog.xml" })
        try PostCache.standard(server: try ServerURL(url, allowingQuery: true), environment: home.environment).saveListing(posts)
        let asked = server.requests.count
        let again = try await run(url, home) { client in (try await client.metadataList(), client.isFeed) }
        #expect(again.0.map(\.id) == ["a", "b", "c"] && again.1)
        #expect(server.requests.count == asked + 1)
        #expect(server.requests.last?.contains("If-None-Match: \"e1\"") == true, "\(server.requests.last ?? "")")
    }

    /// Issue 65: a feed that repeats an id lists every entry, in the library too (the entries
    /// go there as they are read), the repeat under `ID~2`, and says so once.
    @Test func aRepeatedIDIsListedUnderANumberedID() async throws {
        let home = Home()
        let server = try StubServer(response: Self.answer("200 OK", ["Content-Type: application/rss+xml"], Self.rss(["a", "b", "a"])))
        defer { server.stop() }
        let warnings = Mutex<[String]>([])
        let posts = try await APIClient.using(server: try ServerURL(server.url + "/feed.xml", allowingQuery: true), timeout: 3_600, retries: 2) { api in
            let client = BlogClient(api: api, environment: home.environment)
            client.assumeFeed()
            return try await client.metadataList(warn: { line in warnings.withLock { $0.append(line) } })
        }
        #expect(posts.map(\.id) == ["a", "b", "a~2"])
        let said = warnings.withLock { $0 }
        #expect(said.count == 1 && said.first?.contains("1 entry repeats") == true && said.first?.contains("~2") == true, "\(said)")
    }

    /// Issue 65: a refresh keeps the feed's own link as its site (what `feeds export` writes as
    /// `htmlUrl`), on the small feed's path and the big one's (written as it is read).
    @Test func aRefreshKeepsTheFeedsSite() async throws {
        for count in [3, 6_000] {
            let home = Home()
            let body = "<rss version=\"2.0\"><channel><title>T</title><link>/home/</link>"
                + (0..<count).map { "<item><guid>g\($0)</guid><title>t</title><description>\(String(repeating: "x", count: 200))</description></item>" }.joined() + "</channel></rss>"
            let server = try StubServer(response: Self.answer("200 OK", ["Content-Type: application/rss+xml"], body))
            defer { server.stop() }
            let url = server.url + "/feed.xml"
            let posts = try await run(url, home, subscribed: true) { client in try await client.metadataList() }
            #expect(posts.count == count)
            let source = try home.library().source(try ServerURL(url, allowingQuery: true))
            #expect(source?.siteURL == server.url + "/home/", "\(count)")
        }
    }

    /// A 304 to the conditional GET lists what the library keeps, nothing parsed.
    @Test func anUnchangedFeedIsTheLibrarysList() async throws {
        let home = Home()
        let server = try StubServer(sequence: [Self.feed, Self.answer("304 Not Modified", ["ETag: \"e1\""])])
        defer { server.stop() }
        let url = server.url + "/feed.xml"
        let first = try await run(url, home, subscribed: true) { client in try await client.metadataList() }
        try PostCache.standard(server: try ServerURL(url, allowingQuery: true), environment: home.environment).saveListing(first)
        let second = try await run(url, home, subscribed: true) { client in try await client.metadataList() }
        #expect(second == first)
        #expect(server.requests.count == 2)
    }

    /// Issue 64: `--server FEED_URL` whose URL fails says what that URL answered (a 500, a feed
    /// that cannot be read), never the API path's 404, a path the user never typed; a URL that
    /// answers 404 itself leaves the API's error standing.
    @Test func aFailingFeedURLIsNamedNotTheAPIPath() async throws {
        let home = Home()
        let server = try StubServer(response: Self.answer("404 Not Found"), others: [
            // With a query, so that the API's path (`/feed/post-metadata?…`) is not theirs.
            "/feed?broken": Self.answer("500 Internal Server Error"),
            "/feed?unreadable": Self.answer("200 OK", ["Content-Type: application/rss+xml"],
                                           "<?xml version='1.0' encoding='x-no-such-encoding'?><rss><channel></channel></rss>"),
        ])
        defer { server.stop() }
        for (path, expected) in [("/feed?broken", "500"), ("/feed?unreadable", "unreadable"), ("/missing.xml", "post-metadata")] {
            do {
                _ = try await run(server.url + path, home) { client in try await client.metadataList() }
                Issue.record("\(path): no error")
            } catch let error as ToolError {
                #expect(error.message.contains(expected), "\(path): \(error.message)")
                if path != "/missing.xml" { #expect(!error.message.contains("post-metadata"), "\(path): \(error.message)") }
            }
        }
    }

    /// A 301 is followed and said (`feedMovedTo`), for the caller to subscribe there.
    @Test func aPermanentMoveIsFollowedAndSaid() async throws {
        let home = Home()
        let server = try StubServer(response: Self.answer("404 Not Found"), others: [
            "/old.xml": Self.answer("301 Moved Permanently", ["Location: /new.xml"]),
            "/new.xml": Self.feed,
        ])
        defer { server.stop() }
        let (posts, moved) = try await run(server.url + "/old.xml", home, subscribed: true) { client in
            (try await client.metadataList(), client.feedMovedTo)
        }
        #expect(posts.count == 3)
        #expect(moved == server.url + "/new.xml")
    }

    /// 410 Gone: an error naming it; once recorded, the feed is never asked again, even by a
    /// client that does not know it as a subscription.
    @Test func aGoneFeedIsAskedOnceThenNever() async throws {
        let home = Home()
        let server = try StubServer(response: Self.answer("410 Gone"))
        defer { server.stop() }
        let url = server.url + "/feed.xml"
        await #expect(throws: ToolError.self) { try await run(url, home, subscribed: true) { client in try await client.metadataList() } }
        #expect(server.requests.count == 1, "asked once: no retry after a 410")
        FeedHealth.record("HTTP 410", gone: true, server: try ServerURL(url, allowingQuery: true), environment: home.environment)
        do {
            _ = try await run(url, home) { client in try await client.metadataList() }
            Issue.record("a gone feed listed")
        } catch let error as ToolError {
            #expect(error.message.contains("410") && error.message.contains("no longer asked"), "\(error.message)")
        }
        #expect(server.requests.count == 1)
    }

    /// A web page is read for its `<link rel="alternate">` feed, which is then the server.
    @Test func aPageIsReadForItsFeed() async throws {
        let home = Home()
        let page = Self.answer("200 OK", ["Content-Type: text/html"],
                               "<html><head><link rel=\"alternate\" type=\"application/rss+xml\" href=\"/feed.xml\"></head><body>hi</body></html>")
        let server = try StubServer(response: page, others: ["/site/": Self.answer("404 Not Found"), "/feed.xml": Self.feed])
        defer { server.stop() }
        let posts = try await run(server.url + "/site", home) { client in try await client.metadataList() }
        #expect(posts.map(\.id) == ["a", "b", "c"])
        #expect(paths(server).contains("/feed.xml"))
    }

    /// A feed answering 500 is asked once (a retry only when no connection was made).
    @Test func aFailingFeedIsAskedOnce() async throws {
        let home = Home()
        let server = try StubServer(response: Self.answer("500 Internal Server Error"))
        defer { server.stop() }
        await #expect(throws: ToolError.self) {
            try await run(server.url + "/feed.xml", home, subscribed: true) { client in try await client.metadataList() }
        }
        #expect(server.requests.count == 1)
    }
}
