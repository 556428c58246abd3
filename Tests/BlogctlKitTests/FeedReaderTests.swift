import FoundationEssentials
import Foundation
import Testing
@testable import BlogctlKit
import CoreKit
@testable import BlogctlEngines

/// Issue 49: a feed is parsed as it is inflated (`FeedDocument.Reader`), never whole.
@Suite struct FeedReaderTests {
    static let url = "https://blog.example/feed/"

    /// A feed read as its pieces arrive (a gzip body as it is inflated) is the feed read whole,
    /// however it is cut: every seed of the fuzz corpus, a byte order mark, UTF-16 and a JSON
    /// Feed, cut at seeded places, one byte at a time among them.
    @Test func aFeedReadInPiecesIsTheFeedReadWhole() throws {
        let seeds = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("fuzz/seeds/feed-parse")
        var documents = try FileManager.default.contentsOfDirectory(atPath: seeds.path).sorted().map {
            try [UInt8](Data(contentsOf: seeds.appendingPathComponent($0)))
        }
        #expect(documents.count >= 5)
        let rss = "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>Kafé</title><item><title>Ünï</title><guid>1</guid></item></channel></rss>"
        documents.append([0xEF, 0xBB, 0xBF] + Array(rss.utf8))
        documents.append([0xFF, 0xFE] + rss.replacing("<?xml version=\"1.0\"?>", with: "").utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })
        documents.append(Array(#"{"version": "https://jsonfeed.org/version/1.1", "title": "J", "items": [{"id": "1", "content_html": "<p>x</p>"}]}"#.utf8))
        documents.append([0xEF, 0xBB, 0xBF] + Array(#"{"items": [{"id": "\u00e9\ud83d\ude00", "title": "T"}], "version": "https://jsonfeed.org/version/1", "author": {"name": "A"}}"#.utf8))
        var random = SeededGenerator(seed: 49)
        var feeds = 0
        for document in documents {
            let whole = Result { try FeedDocument.parse(Data(document), url: Self.url, contentType: nil) }
            for cuts in [1, 2, 7, 64] {
                let reader = FeedDocument.Reader(url: Self.url, contentType: nil)
                let result = Result { () throws -> Feed in
                    repeat {
                        var start = 0
                        while start < document.count {
                            let length = cuts == 1 ? 1 : Int.random(in: 1...max(1, document.count / cuts * 2), using: &random)
                            let end = min(document.count, start + length)
                            try document[start..<end].withUnsafeBufferPointer { try reader.add($0) }
                            start = end
                        }
                    } while try reader.readsAgain()
                    guard case .feed(let feed) = try reader.finish() else { throw ToolError.badData("a page") }
                    return feed
                }
                switch (whole, result) {
                case (.success(let a), .success(let b)): #expect(a == b, "cut in \(cuts)")
                case (.failure, .failure): break
                default: Issue.record("one read failed, the other did not: \(whole) \(result)")
                }
            }
            if case .success(let feed) = whole, !feed.entries.isEmpty { feeds += 1 }
        }
        // Most are feeds with entries, the three made here among them: the cuts were compared on feeds.
        #expect(feeds >= documents.count / 2 && feeds >= 3, "\(feeds) of \(documents.count)")
    }
}
