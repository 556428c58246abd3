import FoundationEssentials
import Foundation
import Testing
@testable import BlogctlKit
import CoreKit
@testable import BlogctlEngines

/// Issue 63: a JSON Feed streams (`JSONStream`, `JSONFeedParser.Reading`) where it was decoded
/// whole by JSONDecoder, which held every item and a map of every value: a 64 MiB feed of tiny
/// items cost gigabytes. What it reads is what JSONDecoder read, and what it accepts as JSON is
/// what JSONSerialization accepts.
@Suite struct JSONFeedStreamTests {
    static let url = "https://j.example/feed.json"

    /// JSON Feeds made at random (fields in any order, of the wrong types, authors in every
    /// shape, escapes, surrogates, repeated ids and keys, the feed's author after its items)
    /// read to the entries the JSONDecoder reader made, or are read where it refused a feed
    /// for its own field of a wrong type.
    @Test func aFeedReadsAsJSONDecoderReadIt() throws {
        var random = SeededGenerator(seed: 63)
        var compared = 0
        var lenient = 0
        for _ in 0..<700 {
            let document = Self.feed(&random)
            let reference = Result { try ReferenceJSONFeed.parse(Data(document.utf8), url: Self.url) }
            let streamed = Result { try FeedDocument.parse(Data(document.utf8), url: Self.url, contentType: "application/feed+json") }
            switch (reference, streamed) {
            case (.success(let a), .success(let b)):
                #expect(a.entries == b.entries, "\(document)")
                #expect(a.title == b.title && a.link == b.link && a.format == b.format && a.renamed == b.renamed, "\(document)")
                compared += a.entries.count
            case (.failure, .failure): compared += 0
            case (.failure, .success):
                // A feed's own field of the wrong type (a title that is an array) refused the
                // whole feed; it is now left out, as an item's field always was.
                #expect((try? JSONSerialization.jsonObject(with: Data(document.utf8))) != nil, "\(document)")
                lenient += 1
            case (.success, .failure): Issue.record("read before, refused now: \(document)\n\(streamed)")
            }
        }
        #expect(compared > 1000 && lenient < 350, "\(compared) entries compared, \(lenient) feeds read leniently")
    }

    /// Whether a text is JSON is what JSONSerialization says, for documents made at random and
    /// then damaged a byte at a time; the strings read are its strings.
    @Test func jsonIsWhatJSONSerializationAccepts() throws {
        var random = SeededGenerator(seed: 8259)
        let alphabet = Array(#"{}[]:,"\/ 0123456789-+.eEtrufalsnu"#.utf8) + [0x09, 0x0A, 0x01, 0xC3, 0xA9]
        var accepted = 0
        for round in 0..<3000 {
            var bytes = Array(Self.value(&random, depth: 0).utf8)
            if round % 2 == 1 {
                for _ in 0..<Int.random(in: 1...3, using: &random) {
                    let at = Int.random(in: 0..<bytes.count, using: &random)
                    switch Int.random(in: 0..<3, using: &random) {
                    case 0: bytes.remove(at: at)
                    case 1: bytes.insert(alphabet.randomElement(using: &random)!, at: at)
                    default: bytes[at] = alphabet.randomElement(using: &random)!
                    }
                    if bytes.isEmpty { bytes = [0x30] }
                }
            }
            let parsed = try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])
            let collector = Strings()
            let streamed = Self.read(bytes, to: collector)
            let shown = String(decoding: bytes, as: UTF8.self).debugDescription
            #expect((parsed != nil) == streamed, "\(shown)")
            if let parsed, streamed {
                accepted += 1
                #expect(collector.strings == Self.strings(in: parsed), "\(shown)")
            }
        }
        #expect(accepted > 1500)
    }

    /// Nesting deeper than JSONDecoder's limit is refused, at any depth past it; a document
    /// that ends early is refused.
    @Test func deepNestingAndEarlyEndsAreRefused() {
        for depth in [513, 4096, 1 << 20] {
            let text = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
            let document = #"{"version": "https://jsonfeed.org/version/1.1", "x": "# + text + "}"
            #expect(throws: ToolError.self) { try FeedDocument.parse(Data(document.utf8), url: Self.url, contentType: "application/json") }
        }
        for text in [#"{"version": "https://jsonfeed.org/version/1.1", "items": ["#, #"{"version": "https://jsonfeed.org/version/1.1""#, "{", ""] {
            #expect(throws: ToolError.self) { try FeedDocument.parse(Data(text.utf8), url: Self.url, contentType: "application/feed+json") }
        }
    }

    /// Whether `bytes` read as JSON, in one piece, telling `reader`.
    static func read(_ bytes: [UInt8], to reader: some JSONStreamReader) -> Bool {
        var stream = JSONStream()
        do {
            try bytes.withUnsafeBufferPointer { piece throws(ToolError) in try stream.add(piece, to: reader) }
            try stream.finish(reader)
            return true
        } catch {
            return false
        }
    }

    /// Every string of a JSONSerialization value, in document order (the generator makes
    /// objects of one key or none, so that an object's order is never in question).
    static func strings(in value: Any) -> [String] {
        switch value {
        case let text as String: return [text]
        case let array as [Any]: return array.flatMap(strings(in:))
        case let object as [String: Any]: return object.flatMap { [$0.key] + strings(in: $0.value) }
        default: return []
        }
    }

    final class Strings: JSONStreamReader {
        var strings: [String] = []
        func begin(object: Bool) {}
        func end() {}
        func key(_ key: [UInt8]?) { strings.append(String(decoding: key ?? [], as: UTF8.self)) }
        func wantsScalar() -> Bool { true }
        func scalar(_ value: JSONStream.Scalar) {
            if case .string(let text) = value { strings.append(text) }
        }
        func skipped() {}
    }

    static func value(_ random: inout SeededGenerator, depth: Int) -> String {
        switch Int.random(in: 0..<(depth > 3 ? 4 : 7), using: &random) {
        case 0, 3: return string(&random)
        case 1: return ["0", "-1", "12.5", "1e3", "-0.25E-2", "7"].randomElement(using: &random)!
        case 2: return ["true", "false", "null"].randomElement(using: &random)!
        case 4, 5:
            return "[" + (0..<Int.random(in: 0...3, using: &random)).map { _ in value(&random, depth: depth + 1) }.joined(separator: ", ") + "]"
        default:
            return Bool.random(using: &random) ? "{}" : "{" + string(&random) + ": " + value(&random, depth: depth + 1) + "}"
        }
    }

    static func string(_ random: inout SeededGenerator) -> String {
        let pieces = ["a", "é", "東京", #"\n"#, #"\""#, #"\/"#, #"\u00e9"#, #"\ud83d\ude00"#, #"\u0000"#, " ", "x y", #"\t"#, "😀", #"\\"#]
        return "\"" + (0..<Int.random(in: 0...4, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined() + "\""
    }

    /// A JSON Feed with the variations real and broken feeds have.
    static func feed(_ random: inout SeededGenerator) -> String {
        func pick(_ choices: [String]) -> String { choices.randomElement(using: &random)! }
        func author() -> String {
            pick([#"{"name": "Ann"}"#, #"{"name": "  Bo  b "}"#, "{}", #"{"name": null}"#, #""just text""#, "null", #"{"url": "x", "name": "Cy"}"#])
        }
        func authors() -> String {
            "[" + (0..<Int.random(in: 0...2, using: &random)).map { _ in pick([#"{"name": "Di"}"#, "{}", #"{"name": "Ed"}"#]) }.joined(separator: ", ") + "]"
        }
        func text() -> String { pick([#""T""#, #""<p>a &amp; b</p>""#, #""  spaced \n text ""#, "null", "3", "[]", #""東京""#, #""\u00e9\ud83d\ude00""#, #""""#]) }
        func item() -> String {
            var fields: [String] = []
            if Int.random(in: 0..<5, using: &random) > 0 { fields.append(#""id": "# + pick([#""1""#, #""2""#, "3", "4", #""""#, "[1]", "null", #""a b""#])) }
            for key in ["url", "external_url", "title", "content_html", "content_text", "summary", "date_published", "date_modified"]
            where Bool.random(using: &random) {
                switch key {
                case "url", "external_url": fields.append("\"\(key)\": " + pick([#""/p/1""#, #""https://o.example/x""#, "7", #""""#, #""mailto:a@b""#]))
                case "date_published", "date_modified": fields.append("\"\(key)\": " + pick([#""2026-11-27T10:30:15Z""#, #""nope""#, "1"]))
                default: fields.append("\"\(key)\": " + text())
                }
            }
            if Bool.random(using: &random) { fields.append(#""author": "# + author()) }
            if Bool.random(using: &random) { fields.append(#""authors": "# + authors()) }
            if Int.random(in: 0..<4, using: &random) == 0 { fields.append(#""_ext": {"items": [{"id": "inner"}], "title": "no"}"#) }
            fields.shuffle(using: &random)
            return "{" + fields.joined(separator: ", ") + "}"
        }
        var top: [String] = []
        if Int.random(in: 0..<12, using: &random) > 0 {
            top.append(#""version": "# + pick([#""https://jsonfeed.org/version/1.1""#, #""https://jsonfeed.org/version/1""#]))
        }
        if Bool.random(using: &random) { top.append(#""title": "# + text()) }
        if Bool.random(using: &random) { top.append(#""home_page_url": "# + pick([#""https://j.example/""#, #""/home""#, "5"])) }
        if Bool.random(using: &random) { top.append(#""author": "# + author()) }
        if Bool.random(using: &random) { top.append(#""authors": "# + authors()) }
        let items = (0..<Int.random(in: 0...8, using: &random)).map { _ in Int.random(in: 0..<10, using: &random) == 0 ? pick(["1", "null", "[]"]) : item() }
        top.append(#""items": ["# + items.joined(separator: ", ") + "]")
        top.shuffle(using: &random)
        return "{" + top.joined(separator: ",\n ") + "}"
    }
}

/// The JSON Feed reader before issue 63 (JSONDecoder over the whole document), kept as the
/// reference the streaming reader is compared with.
enum ReferenceJSONFeed {
    struct Document: Decodable {
        var version: String?
        var title: String?
        var home_page_url: String?
        var author: Author?
        var authors: [Author]?
        var items: [Lenient<Item>]?
    }

    struct Author: Decodable {
        var name: String?
    }

    struct Item: Decodable {
        var id: String?
        var url: String?
        var external_url: String?
        var title: String?
        var content_html: String?
        var content_text: String?
        var summary: String?
        var date_published: String?
        var date_modified: String?
        var author: Author?
        var authors: [Author]?

        enum CodingKeys: String, CodingKey {
            case id, url, external_url, title, content_html, content_text, summary, date_published, date_modified, author, authors
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            if let text = try? container.decodeIfPresent(String.self, forKey: .id) {
                id = text
            } else if let number = try? container.decodeIfPresent(Int64.self, forKey: .id) {
                id = String(number)
            }
            url = try? container.decodeIfPresent(String.self, forKey: .url)
            external_url = try? container.decodeIfPresent(String.self, forKey: .external_url)
            title = try? container.decodeIfPresent(String.self, forKey: .title)
            content_html = try? container.decodeIfPresent(String.self, forKey: .content_html)
            content_text = try? container.decodeIfPresent(String.self, forKey: .content_text)
            summary = try? container.decodeIfPresent(String.self, forKey: .summary)
            date_published = try? container.decodeIfPresent(String.self, forKey: .date_published)
            date_modified = try? container.decodeIfPresent(String.self, forKey: .date_modified)
            author = try? container.decodeIfPresent(Author.self, forKey: .author)
            authors = try? container.decodeIfPresent([Author].self, forKey: .authors)
        }
    }

    /// An item that does not decode is left out, not the whole feed.
    struct Lenient<T: Decodable>: Decodable {
        var value: T?
        init(from decoder: any Decoder) throws { value = try? T(from: decoder) }
    }

    static func parse(_ data: Data, url: String) throws -> Feed {
        let document = try JSONCoding.decode(Document.self, from: data)
        guard let version = document.version, version.hasPrefix("https://jsonfeed.org/version/") else {
            throw ToolError.protocolViolation(url: url, detail: "no version")
        }
        let feedAuthor = (document.authors?.first ?? document.author)?.name
        var collected = EntryCollector(sink: nil)
        for item in (document.items ?? []).compactMap(\.value) {
            let link = item.url.flatMap { JSONFeedParser.resolve($0, url) } ?? item.external_url.flatMap { JSONFeedParser.resolve($0, url) }
            let title = FeedText.collapsed(item.title ?? "")
            let body = item.content_html ?? item.content_text.map(FeedText.html(fromPlain:)) ?? item.summary.map(FeedText.html(fromPlain:)) ?? ""
            var summary = item.summary.map(FeedText.collapsed) ?? ""
            if item.summary == nil { summary = try FeedText.plain(fromHTML: body) }
            let id = FeedText.collapsed(item.id ?? "")
            let entry = FeedEntry(
                id: FeedEntry.acceptedID(!id.isEmpty ? id : link ?? FeedEntry.hashedID(title + "\u{0}" + (item.date_published ?? ""))),
                title: title, link: link,
                author: ((item.authors?.first ?? item.author)?.name ?? feedAuthor).map(FeedText.collapsed).flatMap { $0.isEmpty ? nil : $0 },
                published: item.date_published.flatMap(FeedDate.parse), updated: item.date_modified.flatMap(FeedDate.parse),
                summary: summary, body: body, base: link ?? url)
            try collected.add(entry)
        }
        return Feed(format: version.hasSuffix("/1") ? .jsonFeed10 : .jsonFeed11, title: FeedText.collapsed(document.title ?? ""),
                    link: document.home_page_url.flatMap { JSONFeedParser.resolve($0, url) }, entries: collected.entries,
                    problems: 0, firstProblem: nil, renamed: collected.renamed)
    }
}
