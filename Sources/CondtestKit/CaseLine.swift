#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import CoreKit

/// One line of a `condtest test` case file, in either form:
///
/// - TSV: `CONDITION<TAB>EXPECT[<TAB>ARG1<TAB>ARG2…]`, CONDITION a server id or `=` and a text
///   expression, EXPECT `true` or `false`;
/// - JSON Lines: `{"condition": ID | "text" | {ConditionData}, "args": […], "expect": true,
///   "name": "…"}`; a string condition holding `(` or starting with `=` is a text expression.
///
/// Blank lines and lines whose first non-blank character is `#` are skipped.
public enum CaseLine {
    /// A TSV case, lent in place: its fields point into the line.
    public struct Borrowed {
        public let condition: Text
        public let expect: Bool
        /// The arguments, still tab-separated (`TabFields`); nil when the line has none.
        public let arguments: Text?
        /// The 1-based column (in bytes, as every column of a case file) where the arguments
        /// start, or just past the end of the line when there are none.
        public let argumentsColumn: Int
    }

    public enum Parsed {
        case tsv(Borrowed)
        /// With the columns where the condition (the expression, for a text one) and the
        /// arguments start.
        case json(TestCase, conditionColumn: Int, argumentsColumn: Int)
    }

    /// Parses line `number`; nil for a blank or comment line.
    @inline(__always)
    public static func parse(_ line: Text, number: Int) throws(CaseFileError) -> Parsed? {
        var first = 0
        while first < line.count, line[first] == 0x20 || line[first] == 0x09 { first += 1 }
        if first == line.count || line[first] == UInt8(ascii: "#") { return nil }
        if line[first] == UInt8(ascii: "{") { return try parseJSON(line, number: number) }
        if first > 0 {
            throw CaseFileError(line: number, column: 1, problem: "expected a condition id or =expression, found blank space")
        }
        return .tsv(try parseTSV(line, number: number))
    }

    /// Parses `line` into an owned case (for tests and tools that keep cases); nil for a
    /// blank or comment line.
    public static func parse(_ line: String, number: Int = 1) throws(CaseFileError) -> TestCase? {
        var bytes = Array(line.utf8)
        return try bytes.withUnsafeMutableBufferPointer { buffer throws(CaseFileError) -> TestCase? in
            switch try parse(Text(buffer), number: number) {
            case nil: return nil
            case .json(let testCase, _, _)?: return testCase
            case .tsv(let borrowed)?:
                let arguments = borrowed.arguments.map {
                    String(decoding: $0, as: UTF8.self).split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
                } ?? []
                return TestCase(conditionKey: String(decoding: borrowed.condition, as: UTF8.self), arguments: arguments,
                                expect: borrowed.expect)
            }
        }
    }

    private static let trueBytes = Array("true".utf8)
    private static let falseBytes = Array("false".utf8)

    @inline(__always)
    static func parseTSV(_ line: Text, number: Int) throws(CaseFileError) -> Borrowed {
        guard let base = line.baseAddress, let tab = memchr(base, 0x09, line.count) else {
            throw CaseFileError(line: number, column: line.count + 1,
                                problem: "expected a tab and true or false after the condition")
        }
        let firstTab = base.distance(to: tab.assumingMemoryBound(to: UInt8.self))
        let condition = Text(rebasing: line[0..<firstTab])
        if condition.count == 1, condition[0] == UInt8(ascii: "=") {
            throw CaseFileError(line: number, column: 2, problem: "expected a text expression after \"=\"")
        }
        if condition.count > ResourceID.maxLength, condition[0] != UInt8(ascii: "=") {
            throw CaseFileError(line: number, column: 1, problem: "condition id longer than \(ResourceID.maxLength) bytes")
        }
        let expectStart = firstTab + 1
        var expectEnd = expectStart
        while expectEnd < line.count, line[expectEnd] != 0x09 { expectEnd += 1 }
        let expectField = Text(rebasing: line[expectStart..<expectEnd])
        let expect: Bool
        if ByteKeyTable<AnyObject>.equal(trueBytes, expectField) {
            expect = true
        } else if ByteKeyTable<AnyObject>.equal(falseBytes, expectField) {
            expect = false
        } else {
            let found = expectField.isEmpty ? "nothing" : Terminal.quote(String(decoding: expectField, as: UTF8.self), limit: 20)
            throw CaseFileError(line: number, column: expectStart + 1, problem: "expected true or false, found \(found)")
        }
        if expectEnd == line.count {
            // No arguments: the column just past the end of the line, where they would go.
            return Borrowed(condition: condition, expect: expect, arguments: nil, argumentsColumn: line.count + 1)
        }
        return Borrowed(condition: condition, expect: expect, arguments: Text(rebasing: line[(expectEnd + 1)...]),
                        argumentsColumn: expectEnd + 2)
    }

    /// The wire form of a JSON Lines case.
    struct Wire: Decodable {
        let condition: ConditionField
        let args: [String]
        let expect: Bool
        let name: String?

        enum CodingKeys: String, CodingKey, CaseIterable { case condition, args, expect, name }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: AnyKey.self)
            for key in container.allKeys where CodingKeys(rawValue: key.stringValue) == nil {
                throw ConditionError(path: key.stringValue,
                                     problem: "unknown key (a case has condition, args, expect and name)")
            }
            let known = try decoder.container(keyedBy: CodingKeys.self)
            condition = try known.decode(ConditionField.self, forKey: .condition)
            args = try known.decodeIfPresent([String].self, forKey: .args) ?? []
            expect = try known.decode(Bool.self, forKey: .expect)
            name = try known.decodeIfPresent(String.self, forKey: .name)
        }
    }

    struct AnyKey: CodingKey {
        let stringValue: String
        init?(stringValue: String) { self.stringValue = stringValue }
        var intValue: Int? { nil }
        init?(intValue: Int) { nil }
    }

    /// `"condition"`: a server id, a text expression, or ConditionData.
    enum ConditionField: Decodable {
        case reference(String)
        case inline(Condition)

        init(from decoder: any Decoder) throws {
            if let text = try? decoder.singleValueContainer().decode(String.self) {
                self = .reference(text)
            } else {
                self = .inline(try Condition(from: decoder))
            }
        }
    }

    static func parseJSON(_ line: Text, number: Int) throws(CaseFileError) -> Parsed {
        let data = Data(line)
        let wire: Wire
        do {
            try ConditionJSON.precheck(data)
            wire = try JSONCoding.decodeThrowingUnderlying(Wire.self, from: data)
        } catch {
            let failure = ConditionJSON.failure(error)
            let column = column(ofKey: failure.path, in: line)
            let what = failure.path.isEmpty ? failure.problem : "\(failure.path): \(failure.problem)"
            throw CaseFileError(line: number, column: column, problem: what)
        }
        var column = column(ofKey: "condition", in: line)
        let testCase: TestCase
        switch wire.condition {
        case .inline(let condition):
            testCase = TestCase(conditionKey: "=" + TextSyntax.format(condition), inlineCondition: condition,
                                arguments: wire.args, expect: wire.expect, name: wire.name)
        case .reference(let text):
            let key: String
            if TestCase.isExpression(text) {
                key = text
                column += 1  // the expression starts after the quote and the "="
            } else if text.contains("(") {
                key = "=" + text
            } else {
                guard !text.isEmpty, !text.utf8.contains(0), text.utf8.count <= ResourceID.maxLength else {
                    throw CaseFileError(line: number, column: column,
                                        problem: "condition: expected a condition id, a text expression or ConditionData")
                }
                key = text
            }
            testCase = TestCase(conditionKey: key, arguments: wire.args, expect: wire.expect, name: wire.name)
        }
        return .json(testCase, conditionColumn: column, argumentsColumn: Self.column(ofKey: "args", in: line))
    }

    /// The column where the value of the top-level key that `path` starts with begins, found
    /// by looking for `"key"` and its colon; 1 when it cannot be found.
    static func column(ofKey path: String, in line: Text) -> Int {
        let key = path.prefix { $0 != "." && $0 != "[" }
        guard !key.isEmpty else { return 1 }
        let needle = Array("\"\(key)\"".utf8)
        guard needle.count <= line.count else { return 1 }
        for start in 0...(line.count - needle.count) where line[start] == needle[0] {
            guard line[start..<(start + needle.count)].elementsEqual(needle) else { continue }
            var index = start + needle.count
            while index < line.count, line[index] == 0x20 || line[index] == 0x09 { index += 1 }
            guard index < line.count, line[index] == UInt8(ascii: ":") else { continue }
            index += 1
            while index < line.count, line[index] == 0x20 || line[index] == 0x09 { index += 1 }
            return index + 1
        }
        return 1
    }
}
