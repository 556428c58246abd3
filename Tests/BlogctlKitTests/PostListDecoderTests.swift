import Foundation
import Testing
import ToolboxKit
@testable import BlogctlKit

/// Issue 39: `GET /post-metadata` read in place gives what Foundation's decoder gives, record
/// for record, skipped records and their words included, and leaves to the decoder whatever
/// it does not read itself.
@Suite struct PostListDecoderTests {
    static let plain = #"""
        {"id": "p1", "title": "Caf\u00e9 \"quoted\" \ud83d\ude00", "publishDate": "2018-08-24T14:15:22Z", "postId": "p1",
         "summary": "line\nbreak\\tab\t/\/", "author": {"name": "Ada", "image": "/a.jpg", "title": "Writer", "extra": [1, {"x": null}]},
         "tags": [true, false, -1.5e+3, 0, {"deep": [[[]]]}], "views": 12}
        """#
    static let variants = [
        plain,
        #"{"author": {"title": "T", "image": "i", "name": "N"}, "summary": "s", "postId": "q", "publishDate": "2018-08-24T14:15:22.5+02:00", "title": "t", "id": "reordered"}"#,
        #"{"id": "missing-date", "title": "t", "postId": "x", "summary": "s", "author": {"name": "N", "image": "i", "title": "T"}}"#,
        #"{"id": "bad-date", "title": "t", "publishDate": "soon", "postId": "x", "summary": "s", "author": {"name": "N", "image": "i", "title": "T"}}"#,
        #"{"id": 7, "title": "t", "publishDate": "2018-08-24T14:15:22Z", "postId": "x", "summary": "s", "author": {"name": "N", "image": "i", "title": "T"}}"#,
        #"{"id": "null-title", "title": null, "publishDate": "2018-08-24T14:15:22Z", "postId": "x", "summary": "s", "author": {"name": "N", "image": "i", "title": "T"}}"#,
        #"{"id": "dup", "id": "dup2", "title": "t", "publishDate": "2018-08-24T14:15:22Z", "postId": "x", "summary": "s", "author": {"name": "N", "image": "i", "title": "T"}}"#,
        #"{"id": "no-author-name", "title": "t", "publishDate": "2018-08-24T14:15:22Z", "postId": "x", "summary": "s", "author": {"image": "i", "title": "T"}}"#,
        #"{"\u0069d": "escaped-key", "title": "t", "publishDate": "2018-08-24T14:15:22Z", "postId": "x", "summary": "s", "author": {"name": "N", "image": "i", "title": "T"}}"#,
        #""not an object""#,
        #"[1, 2]"#,
        #"{}"#,
    ]

    func both(_ text: String) -> (fast: LenientList<PostMetadata>?, slow: LenientList<PostMetadata>?) {
        let bytes = Array(text.utf8)
        let fast = bytes.withUnsafeBytes { PostListDecoder.decode($0) }
        return (fast, try? JSONCoding.decode(LenientList<PostMetadata>.self, from: Data(bytes)))
    }

    @Test func everyRecordAsTheDecoderReadsIt() throws {
        var random = SeededGenerator(seed: 39)
        for round in 0..<200 {
            let records = (0..<Int(random.next() % 8)).map { _ in Self.variants[Int(random.next() % UInt64(Self.variants.count))] }
            let document = " [ " + records.joined(separator: " ,\n") + " ] \n"
            let (fast, slow) = both(document)
            let read = try #require(fast, "round \(round): a valid document is read in place")
            let decoded = try #require(slow)
            #expect(read.records == decoded.records, "round \(round)")
            #expect(read.skipped == decoded.skipped, "round \(round)")
        }
        #expect(both("[" + Self.plain + "]").fast?.records.first?.title == "Café \"quoted\" 😀")
    }

    @Test func whatIsNotValidJSONIsLeftToTheDecoder() {
        let broken = ["", "[", "[] x", "{}", "[" + Self.plain, "[" + Self.plain + ",]", #"[{"id": "\ud800"}]"#, "[01]", "[1.]",
                      "[tru]", "[\"a\u{1}\"]", "[" + Self.plain.replacing("Writer", with: "Wri\u{7}ter") + "]",
                      String(repeating: "[", count: 600) + String(repeating: "]", count: 600)]
        for text in broken {
            #expect(both(text).fast == nil, "\(text.prefix(40))")
        }
        // Invalid UTF-8 inside a string: the decoder refuses the document, so the reader does too.
        var bytes = Array(("[" + Self.plain + "]").utf8)
        bytes[bytes.firstIndex(of: UInt8(ascii: "A"))!] = 0xFF
        #expect(bytes.withUnsafeBytes { PostListDecoder.decode($0) } == nil)
    }
}

extension LenientList: Equatable where Element: Equatable {
    public static func == (a: LenientList, b: LenientList) -> Bool { a.records == b.records && a.skipped == b.skipped }
}
