import FoundationEssentials
import Testing
import TestSupport
import ToolboxKit
@testable import BlogctlKit

/// Issue 65: newsboat's `ignore-article` rules leave entries out at refresh.
@Suite struct IgnoredEntriesTests {
    @Test func rulesAreReadAsNewsboatWritesThem() {
        var said: [String] = []
        let ignored = IgnoredEntries.parse("""
            # newsboat's lines, pasted whole
            ignore-article "*" "title =~ \\"sponsored\\""
            ignore-article "https://a.example/feed" "author = \\"Bot\\""
            ignore-article "*" "titel = x"
            show-read-feeds no
            """, warn: { said.append($0) })
        #expect(ignored.rules.map(\.feed) == ["*", "https://a.example/feed"])
        #expect(said.count == 2 && said[0].hasPrefix("line 4: column 1: unknown attribute") && said[1].hasPrefix("line 5: not ignore-article"), "\(said)")
        func post(_ title: String, _ author: String) -> FilterSubject {
            FilterSubject(post: PostMetadata(id: "i", title: title, publishDate: nil, postId: "i", summary: "",
                                             author: Author(name: author, image: "", title: "")), read: false)
        }
        let mine = ignored.matcher(for: "https://a.example/feed")!, other = ignored.matcher(for: "https://b.example/feed")!
        #expect(mine.matches(post("A SPONSORED post", "Ann")) && mine.matches(post("Fine", "Bot")) && !mine.matches(post("Fine", "Ann")))
        #expect(other.matches(post("Sponsored", "Ann")) && !other.matches(post("Fine", "Bot")))
        #expect(IgnoredEntries.parse("").matcher(for: "https://a.example/feed") == nil)
    }

    /// Through a refresh: the ignored entries never reach the library, in the small feed's
    /// path and in the big one's (written as it is parsed).
    @Test func ignoredEntriesAreNotListed() async throws {
        let home = LibraryTests.Home()
        try FileManagerless.write(home.root + "/config/blogctl/ignore", #"ignore-article "*" "title =~ \"^ad:\"""# + "\n")
        for count in [3, 6_000] {
            let items = (0..<count).map { "<item><guid>g\($0)</guid><title>\($0 % 3 == 0 ? "Ad: buy" : "Post") \($0)</title><description>\(String(repeating: "x", count: 200))</description></item>" }.joined()
            let body = "<rss version=\"2.0\"><channel><title>t</title>\(items)</channel></rss>"
            let server = try StubServer(response: FeedServerTests.answer("200 OK", ["Content-Type: application/rss+xml"], body))
            defer { server.stop() }
            let listed = try await APIClient.using(server: try ServerURL(server.url + "/feed.xml", allowingQuery: true), timeout: 3_600, retries: 0) { api in
                let client = BlogClient(api: api, warn: { _ in }, environment: home.environment)
                client.assumeFeed()
                _ = try await client.writeListing()
                return try home.library().listing(api.server) ?? []
            }
            #expect(listed.count == count - (count + 2) / 3, "\(count): \(listed.count)")
            #expect(!listed.contains { $0.title.hasPrefix("Ad:") })
        }
    }
}

extension FileManagerless {
    static func write(_ path: String, _ text: String) throws {
        let folder = String(path[..<path.lastIndex(of: "/")!])
        try LocalFile.makeDirectories(folder, mode: 0o700)
        try LocalFile.writeAtomically(path, Array(text.utf8), mode: 0o600)
    }
}
