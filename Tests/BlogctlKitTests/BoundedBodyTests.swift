import Foundation
import Testing
import ToolboxKit
@testable import BlogctlKit
import ScreenKit
import TestSupport

/// Issue 37: one bounded path for a post's body, network → cache file → renderer, used by
/// `read` and `ui`: the JSON read as it arrives, gzip to and from files, the rendered text
/// spooled, the JSON output streamed.
@Suite struct BoundedBodyTests {
    static let metadataJSON = #"{"id":"1","title":"T","publishDate":"2018-08-01T00:00:00Z","postId":"p1","summary":"s","author":{"name":"Ada","image":"/images/authors/a.jpg","title":"Analyst"}}"#

    /// Feeds `json` to a `PostStream` in pieces of `split` bytes; the body and the members.
    static func parse(_ json: String, split: Int) throws(PostStream.Failure) -> (body: [UInt8], members: [String: [UInt8]]) {
        final class Box { var bytes: [UInt8] = [] }
        let box = Box()
        var parser = PostStream { box.bytes.append(contentsOf: $0) }
        let bytes = Array(json.utf8)
        var start = 0
        while start < bytes.count {
            let end = min(start + split, bytes.count)
            try bytes[start..<end].withUnsafeBufferPointer { piece throws(PostStream.Failure) in try parser.feed(piece) }
            start = end
        }
        try parser.finish()
        return (box.bytes, parser.members)
    }

    @Test func theBodyIsDecodedAsTheDecoderWouldInAnyOrderAndAnySplit() throws {
        let bodies = ["<p>plain</p>", "quote \\\" back \\\\ slash \\/ \\n\\t\\r\\b\\f", "\\u00e9\\u263A\\ud83d\\ude00 pair",
                      "ラーメン 🍜", ""]
        for body in bodies {
            for json in ["{\"id\":\"p1\",\"metadata\":\(Self.metadataJSON),\"body\":\"\(body)\"}",
                         " { \"body\" : \"\(body)\" , \"metadata\" : \(Self.metadataJSON), \"extra\": [1, {\"a\": \"}\"}], \"n\": -1.5e3, \"t\": true } "] {
                let expected = try #require(try JSONDecoder().decode([String: AnyDecodable].self, from: Data(json.utf8))["body"]?.text)
                for split in [1, 2, 3, 7, 64, 1 << 20] {
                    let parsed = try Self.parse(json, split: split)
                    #expect(String(decoding: parsed.body, as: UTF8.self) == expected, "\(json) split \(split)")
                    let metadata = try JSONCoding.decode(PostMetadata.self, from: Data(try #require(parsed.members["metadata"])))
                    #expect(metadata.title == "T")
                }
            }
        }
    }

    @Test func brokenAnswersAreRefusedInWords() {
        for json in ["[]", "{\"metadata\": {}}", "{\"body\": \"x\"", "{\"body\": 5}", "{\"body\": \"\\q\"}", "{\"body\": \"\\u12g4\"}",
                     "{\"body\": \"a\", \"body\": \"b\"}", "{\"body\": \"a\"} x", "{\"body\" \"a\"}",
                     // Issue 46: what every JSON parser refuses, the stream refuses too.
                     "{\"a\":},\"body\":\"x\"}", "{\"body\":\"a\u{01}b\"}", "{\"body\":\"lone \\ud800 x\"}", "{\"body\":\"\\udc00\"}",
                     "{\"body\":\"\\ud800\\u0041\"}", "{\"n\":01,\"body\":\"x\"}", "{\"s\":\"a\u{0A}b\",\"body\":\"x\"}", "{\"t\":tru,\"body\":\"x\"}"] {
            #expect(throws: PostStream.Failure.self, "\(json)") { _ = try Self.parse(json, split: 3) }
        }
        let huge = "{\"metadata\": \"" + String(repeating: "m", count: PostStream.memberLimit + 10) + "\", \"body\": \"\"}"
        #expect(throws: PostStream.Failure.self) { _ = try Self.parse(huge, split: 1 << 16) }
    }

    @Test func gzipFilesRoundTripAPieceAtATime() throws {
        let folder = TemporaryFolders.make("gzip-files")
        let path = folder + "/body.gz"
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let writer = Gzip.FileWriter(fd: fd)
        var generator = SeededGenerator(seed: 37)
        var whole: [UInt8] = []
        for _ in 0..<50 {
            let piece = (0..<Int.random(in: 0...100_000, using: &generator)).map { _ in UInt8(ascii: "a") + UInt8(generator.next() % 20) }
            whole += piece
            piece.withUnsafeBufferPointer { writer.write($0) }
        }
        #expect(writer.finish() == 0)
        close(fd)
        // zcat reads it, and so does the bounded reader.
        #expect(try Gzip.decompress(Array(Data(contentsOf: URL(fileURLWithPath: path))), limit: whole.count) == whole)
        let read = open(path, O_RDONLY)
        defer { close(read) }
        var back: [UInt8] = []
        #expect(try Gzip.decompress(fd: read, limit: whole.count) { back.append(contentsOf: $0) } == whole.count)
        #expect(back == whole)
        lseek(read, 0, SEEK_SET)
        #expect(throws: Gzip.Failure.self) { try Gzip.decompress(fd: read, limit: whole.count - 1) { _ in } }
    }

    @Test func theJSONOutputIsTheEncodersWhateverTheSize() throws {
        let metadata = try JSONCoding.decode(PostMetadata.self, from: Data(Self.metadataJSON.utf8))
        var generator = SeededGenerator(seed: 7)
        let alphabet = Array("ab \"\\/\n\t\u{1}\u{7F}\u{85}é✓\u{202E}\u{2028}\u{FEFF}😀".unicodeScalars)
        let text = String(String.UnicodeScalarView((0..<200_000).map { _ in alphabet.randomElement(using: &generator)! }))
        let temporary = PostCacheTests.TemporaryCache()
        var stored = metadata
        stored.id = "j"
        let entry = try temporary.cache.store(stored, body: Array(text.utf8), etag: nil)
        let body = try #require(temporary.cache.body("j", entry: entry))
        var streamed: [UInt8] = []
        PostJSON.write(metadata, body: body) { streamed += $0 }
        let whole = Array(JSONCoding.encode(Post(id: metadata.postId, metadata: metadata, body: text), pretty: true)) + [0x0A]
        #expect(streamed == whole)
    }

    @Test func spooledTextReadsAnyWindowAndFinds() throws {
        let lines = (0..<2_000).map { "line \($0)" + ($0 % 500 == 7 ? " Needle ラーメン" : "") }
        let text = try SpooledText.of(lines)
        #expect(text.lineCount == 2_000)
        #expect(text.lines(0..<3) == ["line 0", "line 1", "line 2"])
        #expect(text.lines(255..<258) == ["line 255", "line 256", "line 257"])
        #expect(text.lines(1_998..<2_005) == ["line 1998", "line 1999"])
        #expect(text.line(containing: "needle", in: 0..<2_000, last: false) == 7)
        #expect(text.line(containing: "NEEDLE", in: 8..<2_000, last: false) == 507)
        #expect(text.line(containing: "needle", in: 0..<1_500, last: true) == 1_007)
        #expect(text.line(containing: "ラーメン", in: 600..<2_000, last: false) == 1_007)
        #expect(text.line(containing: "absent", in: 0..<2_000, last: false) == nil)
        var pane = TextPane(lines: [TextPane.Line("title")])
        pane.body = text
        var canvas = Canvas(rows: 10, columns: 40)
        pane.layout(Rect(row: 0, column: 0, rows: 10, columns: 40))
        pane.draw(into: &canvas)
        #expect(pane.rowCount == 2_001)
        #expect(pane.find("needle", includingTop: true) && pane.top == 8)
        #expect(pane.find("needle", forward: true) && pane.top == 508)
        #expect(pane.find("needle", forward: false) && pane.top == 8)
        #expect(pane.find("needle", forward: false) && pane.top == 1_508)
        #expect(pane.find("title", forward: true) && pane.top == 0)
    }
}

/// Any JSON value, for reading the body member as Foundation's decoder does.
struct AnyDecodable: Decodable {
    let text: String?
    init(from decoder: any Decoder) throws {
        text = try? decoder.singleValueContainer().decode(String.self)
    }
}
