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

    /// A rule's feed is the feed the refresh reads, however the URL is spelled, in the rule or
    /// in the urls file (a user and password in one and not the other, a host's case).
    @Test func aRuleNamesItsFeedInAnySpelling() throws {
        let resource = try ServerURL("https://a.example/feed", allowingQuery: true).resource
        for spelling in ["HTTPS://A.EXAMPLE/feed", "https://a.example/feed", "https://A.example:443/feed", "https://u:p@a.example/feed"] {
            let ignored = IgnoredEntries.parse("ignore-article \"\(spelling)\" \"author = \\\"Bot\\\"\"")
            #expect(ignored.matcher(for: resource) != nil, "\(spelling)")
            #expect(ignored.matcher(for: "https://user:secret@A.EXAMPLE/feed") != nil, "\(spelling)")
        }
        #expect(IgnoredEntries.parse(#"ignore-article "https://b.example/feed" "author = \"Bot\"""#).matcher(for: resource) == nil)
    }

    /// A refresh of many feeds reads the file for each and parses it once: a rule that does
    /// not parse is said once.
    @Test func aBadRuleIsSaidOnceARun() throws {
        let home = LibraryTests.Home()
        try FileManagerless.write(home.root + "/config/blogctl/ignore", "ignore-article \"*\" \"titel = x\"\n")
        var said: [String] = []
        for _ in 0..<200 { _ = IgnoredEntries.standard(environment: home.environment, warn: { said.append($0) }) }
        #expect(said.count == 1, "\(said)")
        // A new content of the file is read anew, and its problems said.
        try FileManagerless.write(home.root + "/config/blogctl/ignore", "ignore-article \"*\" \"title = \"\n")
        for _ in 0..<3 { _ = IgnoredEntries.standard(environment: home.environment, warn: { said.append($0) }) }
        #expect(said.count == 2, "\(said)")
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
