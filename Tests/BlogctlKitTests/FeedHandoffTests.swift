import Testing
import ToolboxKit
@testable import BlogctlKit
@testable import BlogctlEngines

/// Issue 66: a big feed is read on a thread of its own while its entries are made and taken on
/// the caller's (`FeedListing.readAside`, `FeedHandoff`): the same entries, ids, renames and
/// order as one thread gives, for RSS and JSON Feed, four times past the handoff's bounds
/// (batches of items and of bytes, batches waiting); a sink that fails ends it, and so does a
/// document that is no feed, without the reader left blocked.
@Suite struct FeedHandoffTests {
    /// What a listing does with entries: keeps each whose id is new, refuses a repeat.
    final class Collecting: FeedEntrySink {
        private(set) var ids: [String] = []
        private var seen: Set<String> = []
        let failAfter: Int?

        init(failAfter: Int? = nil) { self.failAfter = failAfter }

        func take(_ entry: FeedEntry) throws(ToolError) -> Bool {
            if let failAfter, ids.count >= failAfter { throw .io(path: "library", reason: "disk full") }
            guard seen.insert(entry.id).inserted else { return false }
            ids.append(entry.id)
            return true
        }
    }

    /// `count` entries, every seventh under one id (renamed `r~2`, `r~3`, …), each description
    /// `size` bytes.
    static func rss(_ count: Int, size: Int) -> [UInt8] {
        let items = (0..<count).map { index in
            "<item><guid>\(index % 7 == 0 ? "r" : "g\(index)")</guid><title>t\(index)</title><description>\(String(repeating: "x", count: size))</description></item>"
        }
        return Array(("<rss version=\"2.0\"><channel><title>T</title>" + items.joined() + "</channel></rss>").utf8)
    }

    static func json(_ count: Int) -> [UInt8] {
        let items = (0..<count).map { index in "{\"id\": \"\(index % 7 == 0 ? "r" : "g\(index)")\", \"title\": \"t\(index)\", \"content_text\": \"x\"}" }
        return Array(("{\"version\": \"https://jsonfeed.org/version/1.1\", \"title\": \"T\", \"items\": [" + items.joined(separator: ",") + "]}").utf8)
    }

    /// The entries and the feed one thread makes of `body`, and what the handoff makes.
    func both(_ body: [UInt8]) throws -> (one: [String], aside: [String], renamed: (Int, Int)) {
        let response = APIClient.Response(local: body)
        let alone = Collecting()
        let read = try FeedBody.read(response, url: "https://x.example/feed", shown: "feed", sink: alone).get()
        let beside = Collecting()
        let readAside = try FeedListing.readAside(response, "https://x.example/feed", shown: "feed", into: beside).get()
        guard case .feed(let feed) = read, case .feed(let feedAside) = readAside else {
            Issue.record("not read as feeds")
            return ([], [], (0, 0))
        }
        return (alone.ids, beside.ids, (feed.renamed, feedAside.renamed))
    }

    /// Few entries; four times as many batches of items as may wait; four times as many
    /// batches of bytes (entries of a quarter MiB).
    @Test(arguments: [(3, 10), (FeedHandoff.batchItems * FeedHandoff.capacity * 4 + 5, 10),
                      (FeedHandoff.capacity * 4 * 4 + 3, FeedHandoff.batchBytes / 4)])
    func anRSSFeedReadAsideIsTheFeedReadAlone(count: Int, size: Int) throws {
        let result = try both(Self.rss(count, size: size))
        #expect(result.aside.count == count)
        #expect(result.aside == result.one)
        #expect(result.renamed.1 == result.renamed.0 && result.renamed.1 == (count + 6) / 7 - 1)
        #expect(result.aside.prefix(3) == ["r", "g1", "g2"])
        #expect(result.aside.contains("r~2") == (count > 7))
    }

    @Test func aJSONFeedReadAsideIsTheFeedReadAlone() throws {
        let count = FeedHandoff.batchItems * FeedHandoff.capacity * 4 + 1
        let result = try both(Self.json(count))
        #expect(result.aside.count == count)
        #expect(result.aside == result.one)
        #expect(result.renamed.1 == result.renamed.0 && result.renamed.1 == (count + 6) / 7 - 1)
    }

    /// The sink fails while the reader has far more to hand over than may wait: the failure is
    /// the result, and the call returns (the reader reads on to the end, dropping).
    @Test func aFailingSinkEndsTheReadWithItsError() {
        let response = APIClient.Response(local: Self.rss(FeedHandoff.batchItems * (FeedHandoff.capacity * 4), size: 10))
        let sink = Collecting(failAfter: 300)
        let result = FeedListing.readAside(response, "https://x.example/feed", shown: "feed", into: sink)
        guard case .failure(let error) = result else {
            Issue.record("no failure: \(result)")
            return
        }
        #expect("\(error)".contains("disk full"), "\(error)")
        #expect(sink.ids.count == 300)
    }

    @Test func aDocumentThatIsNoFeedIsSaidSo() {
        let page = Array(("<!DOCTYPE html><html><head><title>p</title></head><body>" + String(repeating: "x", count: 2 << 20) + "</body></html>").utf8)
        guard case .success(.page(let bytes)) = FeedListing.readAside(APIClient.Response(local: page), "https://x.example/", shown: "x", into: Collecting()) else {
            Issue.record("a page not read as one")
            return
        }
        #expect(bytes.count == page.count)
        let notAFeed = Array("<?xml version=\"1.0\"?><catalog><book/></catalog>".utf8)
        guard case .failure(let error) = FeedListing.readAside(APIClient.Response(local: notAFeed), "https://x.example/c.xml", shown: "c", into: Collecting()) else {
            Issue.record("not refused")
            return
        }
        #expect("\(error)".contains("not a feed"), "\(error)")
    }
}
