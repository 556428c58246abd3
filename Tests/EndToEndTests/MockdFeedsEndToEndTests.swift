import BlogctlKit
import Foundation
import Testing
import ToolboxKit
import BlogctlEngines

/// Issue 49: mockd serves the blog as the web does, RSS, Atom and JSON Feed of the same posts
/// and a page linking to them, and generated feeds for load; each read by blogctl's parser.
@Suite struct MockdFeedsEndToEndTests {
    func feed(_ base: String, _ path: String) async throws -> Feed {
        let response = try await fetch(base, path)
        #expect(response.status == 200)
        return try FeedDocument.parse(response.data, url: base + path, contentType: response.header("Content-Type"))
    }

    @Test func theBlogInEveryFormat() async throws {
        let sandbox = try Sandbox()
        let mockd = try await MockdProcess(arguments: ["--quiet", "--latency", "0", "--massive-size", "0"], sandbox: sandbox)
        defer { mockd.stop() }
        let rss = try await feed(mockd.url, "/feed.rss")
        let atom = try await feed(mockd.url, "/feed.atom")
        let json = try await feed(mockd.url, "/feed.json")
        #expect(rss.format == .rss20)
        #expect(atom.format == .atom10)
        #expect(json.format == .jsonFeed11)
        let posts = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: Binaries.dataDirectory + "/blog/posts.json"))) as? [[String: Any]]
        #expect(rss.entries.count == posts?.count)
        for other in [atom, json] {
            #expect(other.entries.map(\.id) == rss.entries.map(\.id))
            #expect(other.entries.map(\.title) == rss.entries.map(\.title))
            #expect(other.entries.map(\.link) == rss.entries.map(\.link))
            #expect(other.entries.map(\.author) == rss.entries.map(\.author))
            #expect(other.entries.map(\.date) == rss.entries.map(\.date))
            #expect(other.entries.map(\.summary) == rss.entries.map(\.summary))
        }
        #expect(rss.entries.allSatisfy { $0.link == mockd.url + "/blog/" + $0.id && $0.date != nil && !$0.body.isEmpty })
        let dates = rss.entries.compactMap(\.date)
        #expect(dates == dates.sorted(by: >), "newest first")
        let page = try await fetch(mockd.url, "/blog")
        #expect(FeedDocument.kind(contentType: page.header("Content-Type"), head: page.bytes.prefix(1024)) == .html)
        #expect(try FeedDiscovery.links(inHTML: page.bytes, url: mockd.url + "/blog").map(\.url)
            == ["/feed.rss", "/feed.atom", "/feed.json"].map { mockd.url + $0 })
    }

    @Test func generatedFeedsAndConditionalRequests() async throws {
        let sandbox = try Sandbox()
        let mockd = try await MockdProcess(arguments: ["--quiet", "--latency", "0", "--massive-size", "0", "--feeds", "3", "--feed-items", "5"],
                                     sandbox: sandbox)
        defer { mockd.stop() }
        let second = try await feed(mockd.url, "/feeds/2.xml")
        #expect(second.entries.count == 5)
        #expect(second.title == "Generated feed 2")
        #expect(Set(second.entries.map(\.id)).count == 5)
        #expect(try await fetchStatus(mockd.url, "/feeds/4.xml") == 404)
        #expect(try await fetchStatus(mockd.url, "/feeds/0.xml") == 404)
        let opml = try await fetch(mockd.url, "/feeds.opml").text
        #expect(opml.components(separatedBy: "<outline ").count == 4)
        // A refresh where nothing changed: 304 by tag, and by date.
        let first = try await fetch(mockd.url, "/feeds/1.xml")
        let etag = try #require(first.header("ETag"))
        let modified = try #require(first.header("Last-Modified"))
        #expect(try await fetch(mockd.url, "/feeds/1.xml", headers: [("If-None-Match", etag)]).status == 304)
        #expect(try await fetch(mockd.url, "/feeds/1.xml", headers: [("If-Modified-Since", modified)]).status == 304)
        #expect(try await fetch(mockd.url, "/feeds/1.xml", headers: [("If-None-Match", "\"other\"")]).status == 200)
    }
}
