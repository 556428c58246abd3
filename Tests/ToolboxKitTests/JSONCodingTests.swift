import FoundationEssentials
import Testing
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
