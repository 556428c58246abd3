import Foundation
import TestSupport
import Testing
import ToolboxKit
@testable import BlogctlKit
@testable import BlogctlEngines

/// Issue 49: the urls file as newsboat writes it, read and written back.
@Suite struct SubscriptionsTests {
    @Test func newsboatsURLsFileIsRead() {
        var warnings: [String] = []
        let text = """
            # a comment
            https://example.org/atom.xml tech "~Example Blog" "long tag"

            http://example.com/rss  news
            ftp://nope.example/feed tag
            https://example.org/atom.xml again
            "https://quoted.example/feed" "say \\"hi\\""
            """
        let parsed = Subscriptions.parse(text) { warnings.append($0) }
        #expect(parsed == [
            Subscription(url: "https://example.org/atom.xml", title: "Example Blog", tags: ["tech", "long tag"]),
            Subscription(url: "http://example.com/rss", title: "", tags: ["news"]),
            Subscription(url: "https://quoted.example/feed", title: "", tags: ["say \"hi\""]),
        ])
        #expect(warnings.count == 1 && warnings[0].contains("line 5"), "\(warnings)")
    }

    /// Whatever a name or tag holds (quotes, backslashes, blanks, `#`, newlines from an OPML
    /// file), the file reads back as it was written, one subscription a line; a newline is a
    /// blank, and a tag's leading `~` (which would name the feed) is dropped.
    @Test func everySubscriptionRoundTrips() {
        var generator = SeededGenerator(seed: 49)
        // A combining mark (U+0301) after a quote, `#`, `~` or a blank, and `\r\n`, one
        // Character each: the file is read by scalars, so none hides the syntax.
        let pieces = ["a", " ", "\"", "\\", "#", "~", "é", "\t", "tag", "\n", "\u{301}", "\r\n", "\r"]
        func text() -> String { (0..<Int.random(in: 1...5, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined() }
        let subscriptions = (0..<200).map { number in
            Subscription(url: "https://host\(number).example/feed", title: number % 3 == 0 ? "" : text(),
                             tags: (0..<Int.random(in: 0...3, using: &generator)).map { _ in text() })
        }
        let read = Subscriptions.parse(Subscriptions.format(subscriptions))
        func clean(_ text: String) -> String {
            String(String.UnicodeScalarView(text.unicodeScalars.map { $0 == "\n" || $0 == "\r" ? " " : $0 }))
        }
        #expect(read.count == subscriptions.count)
        for (back, original) in zip(read, subscriptions) {
            #expect(back.url == original.url)
            #expect(back.title == clean(original.title), "\(original.title.debugDescription)")
            #expect(back.tags == original.tags.map { String(clean($0).unicodeScalars.drop { $0 == "~" }) }, "\(original.tags)")
        }
    }

    @Test func savedPrivately() throws {
        let root = TemporaryFolders.make("blogctl-subscriptions")
        let file = Subscriptions(path: root + "/config/blogctl/urls")
        #expect(try file.load().isEmpty)
        try file.save([Subscription(url: "https://example.org/feed", title: "Example", tags: ["a b"])])
        #expect(try file.load() == [Subscription(url: "https://example.org/feed", title: "Example", tags: ["a b"])])
        var info = stat()
        #expect(stat(file.path, &info) == 0 && info.st_mode & 0o777 == 0o600)
    }

    /// Issue 63: a newsboat user's urls file stays theirs. Saving changes only the lines of
    /// the subscriptions that changed; comments, blank lines, spacing and the feeds blogctl
    /// does not read (`query:`, `exec:`, `filter:`) stay byte for byte; a removed feed's every
    /// line goes; a new one is added at the end.
    @Test func savingKeepsEveryLineItDoesNotChange() throws {
        let root = TemporaryFolders.make("blogctl-subscriptions")
        let file = Subscriptions(path: root + "/config/blogctl/urls")
        let original = """
            # my feeds\r
            https://a.example/feed   tech  "~A  Blog"

            "query:Unread:unread = \\"yes\\""
            exec:~/bin/feed.sh
            filter:~/bin/clean.sh:https://b.example/rss news
            https://b.example/rss\t news
            https://gone.example/x
            https://gone.example/x  again

            """
        try FileManager.default.createDirectory(atPath: root + "/config/blogctl", withIntermediateDirectories: true)
        try original.write(toFile: file.path, atomically: true, encoding: .utf8)
        chmod(file.path, 0o600)
        var subscriptions = try file.load()
        #expect(subscriptions.map(\.url) == ["https://a.example/feed", "exec:~/bin/feed.sh", "filter:~/bin/clean.sh:https://b.example/rss",
                                               "https://b.example/rss", "https://gone.example/x"])
        subscriptions.removeAll { $0.url == "https://gone.example/x" }
        subscriptions[3].tags.append("more")
        subscriptions.append(Subscription(url: "https://new.example/atom", title: "", tags: []))
        try file.save(subscriptions)
        let written = try String(contentsOfFile: file.path, encoding: .utf8)
        #expect(written == """
            # my feeds\r
            https://a.example/feed   tech  "~A  Blog"

            "query:Unread:unread = \\"yes\\""
            exec:~/bin/feed.sh
            filter:~/bin/clean.sh:https://b.example/rss news
            https://b.example/rss news more
            https://new.example/atom

            """, "\(written)")
        // Unchanged: the same bytes.
        try file.save(try file.load())
        #expect(try String(contentsOfFile: file.path, encoding: .utf8) == written)
    }

    /// A symlinked urls file (kept in a dotfiles folder) is written at its target, and stays a link.
    @Test func aSymlinkedFileIsWrittenThrough() throws {
        let root = TemporaryFolders.make("blogctl-subscriptions")
        try FileManager.default.createDirectory(atPath: root + "/dotfiles", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: root + "/config/blogctl", withIntermediateDirectories: true)
        try "# mine\nhttps://a.example/feed\n".write(toFile: root + "/dotfiles/urls", atomically: true, encoding: .utf8)
        chmod(root + "/dotfiles/urls", 0o600)
        try FileManager.default.createSymbolicLink(atPath: root + "/config/blogctl/urls", withDestinationPath: root + "/dotfiles/urls")
        let file = Subscriptions(path: root + "/config/blogctl/urls")
        try file.save(try file.load() + [Subscription(url: "https://b.example/rss", title: "", tags: [])])
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: file.path) == root + "/dotfiles/urls")
        #expect(try String(contentsOfFile: root + "/dotfiles/urls", encoding: .utf8) == "# mine\nhttps://a.example/feed\nhttps://b.example/rss\n")
    }

    /// What blogctl cannot use is said once for each content of the file, not at every command.
    @Test func problemsAreSaidOncePerChange() throws {
        let root = TemporaryFolders.make("blogctl-subscriptions")
        let environment = ["HOME": root, "XDG_CONFIG_HOME": root + "/config", "XDG_DATA_HOME": root + "/data"]
        let file = Subscriptions.standard(environment: environment)
        try FileManager.default.createDirectory(atPath: root + "/config/blogctl", withIntermediateDirectories: true)
        try "https://a.example/feed\nexec:\n".write(toFile: file.path, atomically: true, encoding: .utf8)
        chmod(file.path, 0o600)
        var said: [String] = []
        for _ in 0..<3 { _ = try file.loadSayingProblemsOnce(environment: environment) { said.append($0) } }
        #expect(said.count == 1 && said[0].contains("exec: takes a command") && said[0].contains("line 2"), "\(said)")
        try "https://a.example/feed\nfilter:~/bin/y\n".write(toFile: file.path, atomically: true, encoding: .utf8)
        chmod(file.path, 0o600)
        _ = try file.loadSayingProblemsOnce(environment: environment) { said.append($0) }
        #expect(said.count == 2)
    }

    /// A urls file others may write is refused, as config.yml is: it picks the hosts that get
    /// the passwords in its URLs.
    @Test func aFileOthersCanWriteIsRefused() throws {
        let root = TemporaryFolders.make("blogctl-subscriptions")
        let file = Subscriptions(path: root + "/config/blogctl/urls")
        try file.save([Subscription(url: "https://example.org/feed", title: "", tags: [])])
        chmod(file.path, 0o666)
        #expect(throws: ToolError.self) { try file.load() }
        chmod(file.path, 0o600)
        #expect(try file.load().count == 1)
    }

    /// One server is one subscription, however its URL is written; a name or URL removes it.
    @Test func addRemoveAndImportKeepOneSubscriptionAServer() throws {
        var warnings: [String] = []
        let start = [Subscription(url: "https://example.org/feed", title: "Example", tags: [])]
        let (added, count) = try Subscriptions.adding(["https://example.org/feed/", "HTTPS://example.org/feed", "http://other.example/rss"],
                                                      tags: ["news"], to: start) { warnings.append($0) }
        #expect(count == 1 && added.map(\.url) == ["https://example.org/feed", "http://other.example/rss"], "\(added)")
        #expect(added.last?.tags == ["news"])
        #expect(warnings.count == 2)
        #expect(throws: ToolError.self) { try Subscriptions.adding(["ftp://nope"], tags: [], to: start) { _ in } }
        #expect(try Subscriptions.removing(["Example"], from: added).map(\.url) == ["http://other.example/rss"])
        #expect(try Subscriptions.removing(["http://other.example/rss/"], from: added).map(\.url) == ["https://example.org/feed"])
        #expect(throws: ToolError.self) { try Subscriptions.removing(["Nope"], from: added) }
        let list = OPML.List(subscriptions: [Subscription(url: "https://example.org/feed", title: "Again"),
                                             Subscription(url: "https://new.example/atom", title: "New", tags: ["a"])], skipped: 0)
        let (imported, importedCount, refused) = Subscriptions.importing(list, into: start)
        #expect(importedCount == 1 && refused == 0 && imported.map(\.title) == ["Example", "New"])
        // Issue 64: a URL that cannot be subscribed is counted as such, not as already subscribed;
        // one holding `"` would read back from the urls file as another URL.
        let odd = OPML.List(subscriptions: [Subscription(url: "ftp://nope.example/", title: ""),
                                            Subscription(url: "https://q.example/\"x", title: ""),
                                            Subscription(url: "https://example.org/feed", title: "")], skipped: 0)
        let (_, oddAdded, oddRefused) = Subscriptions.importing(odd, into: start)
        #expect(oddAdded == 0 && oddRefused == 2)
    }

    /// Issue 64: a permanent move is followed on the server's word only when no one on the path
    /// could have forged it and nothing is lost; else it is kept pending, for the user to follow.
    @Test func aMoveIsFollowedOnlyWhenItIsSafe() throws {
        func pending(_ old: String, _ new: String) throws -> Bool {
            SubscriptionListing.pendingMove(from: try ServerURL(old, allowingQuery: true), to: try ServerURL(new, allowingQuery: true)) != nil
        }
        #expect(try pending("http://a.example/feed", "http://elsewhere.example/feed"))
        #expect(try pending("http://a.example/feed", "https://elsewhere.example/feed"))
        #expect(try pending("https://u:p@a.example/feed", "https://a.example/new"))
        #expect(try !pending("http://a.example/feed", "https://a.example/feed"))
        #expect(try !pending("http://a.example/old", "http://a.example/new"))
        #expect(try !pending("https://a.example/feed", "https://b.example/feed"))
        #expect(try !pending("https://u:p@a.example/feed", "https://u:p@a.example/new"))
    }

    @Test func aHostsFeedsAreDealtIntoAtMostPerHostLanes() {
        let hosts = ["a", "a", "b", "a", "a", "a", "b", "c"]
        let lanes = SubscriptionListing.lanes(hosts, perHost: 2)
        #expect(lanes == [[0, 3, 5], [1, 4], [2], [6], [7]])
        // Every feed once; no lane mixes hosts; no host in more than two lanes.
        #expect(lanes.flatMap { $0 }.sorted() == Array(hosts.indices))
        #expect(lanes.allSatisfy { Set($0.map { hosts[$0] }).count == 1 })
        #expect(Dictionary(grouping: lanes, by: { hosts[$0[0]] }).values.allSatisfy { $0.count <= 2 })
        #expect(SubscriptionListing.lanes([], perHost: 6).isEmpty)
        #expect(SubscriptionListing.lanes(Array(repeating: "x", count: 200), perHost: 6).map(\.count) == [34, 34, 33, 33, 33, 33])
    }

    @Test func aCRLFFileAndCombiningMarksReadAsWritten() {
        let text = "https://a.example/feed \"~A B\"\r\n#\u{301} not a feed\r\nhttps://b.example/x tag\u{301} ~\u{301}N\r\n"
        let parsed = Subscriptions.parse(text)
        #expect(parsed.map(\.url) == ["https://a.example/feed", "https://b.example/x"])
        #expect(parsed.first?.title == "A B")
        #expect(parsed.last?.title == "\u{301}N" && parsed.last?.tags == ["tag\u{301}"])
    }
}

/// Issue 49: `blogctl read <Tab>` with subscriptions and no server offers every subscribed
/// feed's listed ids, once each, as `read` then finds them; a server named offers its own.
@Suite struct SubscriptionIDCompletionTests {
    @Test func everyFeedsIdsAreOffered() throws {
        let root = TemporaryFolders.make("blogctl-complete")
        let environment = ["HOME": root, "XDG_CONFIG_HOME": root + "/config", "XDG_CACHE_HOME": root + "/cache"]
        let feeds = ["http://127.0.0.1:9/a.xml", "http://127.0.0.1:9/b.xml?x=1"]
        try Subscriptions.standard(environment: environment).save(feeds.map { Subscription(url: $0, title: "", tags: []) })
        for (feed, ids) in zip(feeds, [["apple", "shared"], ["avocado", "shared", "beet"]]) {
            try PostCache.standard(server: try ServerURL(feed, allowingQuery: true), environment: environment).saveListing(ids.map {
                PostMetadata(id: $0, title: $0, publishDate: nil, postId: $0, summary: "", author: Author(name: "", image: "", title: ""))
            })
        }
        #expect(PostIDCompletion.candidates(prefix: "a", environment: environment) == ["apple", "avocado"])
        #expect(PostIDCompletion.candidates(prefix: "s", environment: environment) == ["shared"])
        #expect(PostIDCompletion.candidates(prefix: "", environment: environment).sorted() == ["apple", "avocado", "beet", "shared"])
        // A server named on the line: that feed's ids alone.
        #expect(PostIDCompletion.candidates(before: ["blogctl", "read", "--server", feeds[0]], prefix: "", environment: environment).sorted() == ["apple", "shared"])
    }
}

/// Issue 65: newsboat's query feeds in the urls file: a name and an expression, tags after.
@Suite struct QueryFeedTests {
    @Test func queryLinesAreReadAndMistakesNamed() {
        let text = """
            https://a.example/feed tech
            "query:Unread news:unread = \\"yes\\" and tags # \\"news\\"" people "~x"
            "query:Bad:title ~ x"
            "query:no expression"
            exec:~/bin/feed.sh
            """
        var said: [String] = []
        let queries = Subscriptions.queries(text, warn: { said.append($0) })
        #expect(queries.map(\.name) == ["Unread news"])
        #expect(queries.first?.tags == ["people", "~x"])
        #expect(queries.first?.expression == (try? FilterExpression.parse("unread = \"yes\" and tags # \"news\"")))
        #expect(said.count == 2 && said[0].hasPrefix("line 3: query feed \"Bad\": column 7: expected an operator") && said[1].hasPrefix("line 4:"), "\(said)")
        // The feeds of the file are what they were, its command feed among them; query: is not said.
        var others: [String] = []
        #expect(Subscriptions.parse(text, warn: { others.append($0) }).map(\.url) == ["https://a.example/feed", "exec:~/bin/feed.sh"])
        #expect(others.isEmpty, "\(others)")
    }
}
