import Foundation
import TestSupport
import Testing
import ToolboxKit
@testable import BlogctlKit

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
            FeedSubscription(url: "https://example.org/atom.xml", title: "Example Blog", tags: ["tech", "long tag"]),
            FeedSubscription(url: "http://example.com/rss", title: "", tags: ["news"]),
            FeedSubscription(url: "https://quoted.example/feed", title: "", tags: ["say \"hi\""]),
        ])
        #expect(warnings.count == 1 && warnings[0].contains("line 5"), "\(warnings)")
    }

    /// Whatever a name or tag holds (quotes, backslashes, blanks, `#`, newlines from an OPML
    /// file), the file reads back as it was written, one subscription a line; a newline is a
    /// blank, and a tag's leading `~` (which would name the feed) is dropped.
    @Test func everySubscriptionRoundTrips() {
        var generator = SeededGenerator(seed: 49)
        let pieces = ["a", " ", "\"", "\\", "#", "~", "é", "\t", "tag", "\n"]
        func text() -> String { (0..<Int.random(in: 1...5, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined() }
        let subscriptions = (0..<200).map { number in
            FeedSubscription(url: "https://host\(number).example/feed", title: number % 3 == 0 ? "" : text(),
                             tags: (0..<Int.random(in: 0...3, using: &generator)).map { _ in text() })
        }
        let read = Subscriptions.parse(Subscriptions.format(subscriptions))
        func clean(_ text: String) -> String { String(text.map { $0 == "\n" || $0 == "\r" ? " " : $0 }) }
        #expect(read.count == subscriptions.count)
        for (back, original) in zip(read, subscriptions) {
            #expect(back.url == original.url)
            #expect(back.title == clean(original.title), "\(original.title.debugDescription)")
            #expect(back.tags == original.tags.map { String(clean($0).drop { $0 == "~" }) }, "\(original.tags)")
        }
    }

    @Test func savedPrivately() throws {
        let root = TemporaryFolders.make("blogctl-subscriptions")
        let file = Subscriptions(path: root + "/config/blogctl/urls")
        #expect(try file.load().isEmpty)
        try file.save([FeedSubscription(url: "https://example.org/feed", title: "Example", tags: ["a b"])])
        #expect(try file.load() == [FeedSubscription(url: "https://example.org/feed", title: "Example", tags: ["a b"])])
        var info = stat()
        #expect(stat(file.path, &info) == 0 && info.st_mode & 0o777 == 0o600)
    }
}
