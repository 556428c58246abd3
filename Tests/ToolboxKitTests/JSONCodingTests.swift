import FoundationEssentials
import Testing
@testable import CoreKit
@testable import ToolboxKit

@Suite struct JSONCodingTests {
    struct Item: Codable, Equatable { let name: String; let when: Date? }
    struct Box: Codable { let items: [Item] }

    @Test func datesWithAndWithoutFractionalSeconds() throws {
        let json = #"{"items":[{"name":"a","when":"2018-08-24T14:15:22Z"},{"name":"b","when":"2018-08-24T14:15:22.250Z"}]}"#
        let box = try JSONCoding.decode(Box.self, from: Data(json.utf8))
        #expect(box.items[0].when == Date(timeIntervalSince1970: 1_535_120_122))
        #expect(box.items[1].when == Date(timeIntervalSince1970: 1_535_120_122.25))
    }

    @Test func offsetsAreUnderstood() {
        #expect(ISO8601.parse("2018-08-24T16:15:22+02:00") == Date(timeIntervalSince1970: 1_535_120_122))
        #expect(ISO8601.parse("yesterday") == nil)
    }

    @Test func errorsNameTheJSONPath() {
        let missing = #"{"items":[{"name":"a"},{"when":null}]}"#
        #expect(throws: JSONDecodeFailure(path: "items[1].name", problem: "missing")) {
            try JSONCoding.decode(Box.self, from: Data(missing.utf8))
        }
        let wrongType = #"{"items":[{"name":3}]}"#
        do {
            _ = try JSONCoding.decode(Box.self, from: Data(wrongType.utf8))
            Issue.record("expected failure")
        } catch {
            #expect(error.description.hasPrefix("items[0].name: expected a string"))
        }
        let badDate = #"{"items":[{"name":"a","when":"soon"}]}"#
        do {
            _ = try JSONCoding.decode(Box.self, from: Data(badDate.utf8))
            Issue.record("expected failure")
        } catch {
            #expect(error.description == #"items[0].when: expected an ISO 8601 date, found "soon""#)
        }
    }

    @Test func notJSONAtAll() {
        #expect(throws: JSONDecodeFailure.self) { try JSONCoding.decode(Box.self, from: Data("<html>".utf8)) }
    }

    @Test func encodesDatesAsUTCSeconds() throws {
        let data = JSONCoding.encode(Item(name: "a", when: Date(timeIntervalSince1970: 1_535_120_122.7)))
        #expect(String(decoding: data, as: UTF8.self) == #"{"name":"a","when":"2018-08-24T14:15:22Z"}"#)
    }
}

/// Issue 17: 513 unclosed `[` at the end of a reply crashed Foundation's decoder (SIGILL).
@Suite struct JSONDepthTests {
    struct Anything: Decodable {}

    @Test(arguments: [511, 512, 513, 514, 1_000, 100_000])
    func unclosedArraysAreRefusedWithoutCrashing(count: Int) {
        let data = Data(repeating: UInt8(ascii: "["), count: count)
        #expect(throws: JSONDecodeFailure(path: "", problem: "nested deeper than \(JSONCoding.maximumDepth) levels")) {
            try JSONCoding.decode([Anything].self, from: data)
        }
        #expect(throws: JSONDecodeFailure.self) { try JSONCoding.decodeThrowingUnderlying([Anything].self, from: data) }
    }

    @Test func unclosedObjectsAndMixedNestingToo() {
        let mixed = Data(String(repeating: #"{"a":["#, count: 300).utf8)
        #expect(throws: JSONDecodeFailure.self) { try JSONCoding.decode(Anything.self, from: mixed) }
    }

    @Test func documentsWithinTheLimitStillDecode() throws {
        let depth = JSONCoding.maximumDepth
        let data = Data((String(repeating: "[", count: depth) + String(repeating: "]", count: depth)).utf8)
        _ = try JSONCoding.decode([JSONValueProbe].self, from: data)
    }

    @Test func bracketsInsideStringsDoNotCount() throws {
        let data = Data(("[\"" + String(repeating: "[", count: 2_000) + "\"]").utf8)
        #expect(try JSONCoding.decode([String].self, from: data) == [String(repeating: "[", count: 2_000)])
    }

    /// Any JSON value, to decode nesting without a type for each level.
    struct JSONValueProbe: Decodable {
        init(from decoder: any Decoder) throws {
            if var list = try? decoder.unkeyedContainer() {
                while !list.isAtEnd { _ = try list.decode(JSONValueProbe.self) }
            }
        }
    }
}

/// Issue 46: one id rule for every list of every tool: a record whose id cannot be
/// represented (a NUL, empty) is skipped with its index and key named, the rest kept.
@Suite struct RecordIDRuleTests {
    struct Record: Decodable, IdentifiedRecord {
        let id: String
        var recordIDs: KeyValuePairs<String, String> { ["id": id] }
    }

    @Test func unusableIdsSkipTheirRecordNamed() throws {
        let list = try JSONCoding.decode(LenientList<Record>.self, from: Data(#"[{"id":"a"},{"id":"b\u0000c"},{"id":""},{"id":"d"}]"#.utf8))
        #expect(list.records.map(\.id) == ["a", "d"])
        #expect(list.skipped.map(\.description) == [
            "\"bc\" (record 1): [1].id: unusable id: it holds a NUL byte",
            "\"\" (record 2): [2].id: unusable id: it is empty",
        ])
    }

    @Test func loneSurrogatesSkipTheirRecord() throws {
        // The decoder refuses them (never U+FFFD): the record is skipped, named by its place.
        let list = try JSONCoding.decode(LenientList<Record>.self, from: Data(#"[{"id":"a\ud800"},{"id":"b"}]"#.utf8))
        #expect(list.records.map(\.id) == ["b"])
        #expect(list.skipped.map(\.index) == [0])
    }
}
