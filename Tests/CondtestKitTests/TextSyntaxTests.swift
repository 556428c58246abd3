import FoundationEssentials
import Testing
@testable import CondtestKit

@Suite struct TextSyntaxTests {
    static let examples = [
        #"eq(arg1, "rollout.io")"#,
        #"and(ne(arg1, "rollout.io"), containsString(arg1, "ro"))"#,
        #"and(ne(arg1, "rollout.io"), startsWith(arg1, "ro"))"#,
        #"and(eq(arg1, "rollout.io"), eq(arg2, "control your production"))"#,
        #"or(and(endsWith(arg1, ".io"), not(containsString(arg1, "staging"))), eq(arg2, "beta"))"#,
        #"eq(arg1, arg2)"#,
        #"not(eq("en_US", arg1))"#,
        #"eq(arg1, "quote \" backslash \\ newline \n tab \t bell \u0007 csi \u009b é 日本 🙂")"#,
    ]

    @Test(arguments: examples)
    func textRoundTripsThroughJSON(_ text: String) throws {
        let condition = try TextSyntax.parse(text)
        #expect(TextSyntax.format(condition) == text)
        let json = try JSONEncoder().encode(condition)
        let back = try ConditionJSON.decode(Condition.self, from: json)
        #expect(back == condition)
        #expect(TextSyntax.format(back) == text)
    }

    /// A tag character or any scalar past U+FFFF that the terminal rule escapes is written as a
    /// surrogate pair, which the parser reads back; four hex digits cannot hold it (the writer
    /// once padded "e0041" to -1 zeros and trapped, on a server's string).
    @Test func escapesPastTheBasicPlaneRoundTrip() throws {
        let value = "tag \u{E0041} bidi \u{202E} emoji 🙂 bell \u{07}"
        let literal = TextSyntax.literal(value)
        #expect(literal == #""tag \udb40\udc41 bidi \u202e emoji 🙂 bell \u0007""#)
        let condition = try TextSyntax.parse("eq(arg1, \(literal))")
        #expect(TextSyntax.format(condition) == "eq(arg1, \(literal))")
        #expect(Condition.shown("op\u{E0041}") == #"op\udb40\udc41"#)
    }

    @Test func everyDataFileRoundTrips() throws {
        let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("data/conditions")
        var count = 0
        for index in 1...99 {
            let name = threeDigits(index)
            guard let data = try? Data(contentsOf: directory.appendingPathComponent("\(name).json")) else { continue }
            let record = try ConditionJSON.decode(ConditionRecord.self, from: data)
            let text = TextSyntax.format(record.condition)
            #expect(try TextSyntax.parse(text) == record.condition, "\(name).json")
            count += 1
        }
        #expect(count >= 12)
    }

    @Test func whitespaceIsFree() throws {
        let condition = try TextSyntax.parse("  and (\n\teq( arg1 ,\"a\" ) ,not(eq(arg2,\"b\")))  ")
        #expect(TextSyntax.format(condition) == #"and(eq(arg1, "a"), not(eq(arg2, "b")))"#)
    }

    @Test func escapesDecode() throws {
        let condition = try TextSyntax.parse(#"eq(arg1, "\u00e9\ud83d\ude42\/")"#)
        #expect(condition.args[1] == .string("é🙂/"))
    }

    func parseError(_ text: String) -> String {
        do {
            _ = try TextSyntax.parse(text)
            return "no error"
        } catch {
            return error.description
        }
    }

    @Test func errorsNameTheColumn() {
        #expect(parseError(#"and(ne(arg1, "x"), startWith(arg1, "r"))"#)
                == #"column 20: unknown operator "startWith" (did you mean "startsWith"?)"#)
        #expect(parseError(#"and(arg1, "x")"#) == #"column 5: "and" takes conditions, found an argument"#)
        #expect(parseError(#"eq(arg1)"#) == #"column 1: "eq" takes 2 operands, found 1"#)
        #expect(parseError(#"eq(arg0, "x")"#) == "column 4: argument numbers run from 1 to 10000, found arg0")
        #expect(parseError(#"eq(argX, "x")"#) == #"column 4: unknown name "argX": arguments are arg1, arg2, …"#)
        #expect(parseError(#"eq(arg1, "x""#) == #"column 13: expected "," or ")", found the end"#)
        #expect(parseError(#"eq(arg1, "x) "#) == "column 10: unterminated string")
        #expect(parseError(#"eq(arg1, "x") extra"#) == #"column 15: unexpected "e" after the condition"#)
        #expect(parseError(#"eq(arg1, "\q")"#) == #"column 11: invalid escape "\q" in a string"#)
        #expect(parseError(#"eq(arg1, "\ud800")"#) == #"column 11: lone surrogate \ud800"#)
        #expect(parseError("eq(arg1, \"a\tb\")") == "column 12: control character U+9 in a string: write it as an escape")
        #expect(parseError("") == "column 1: expected an operator name, found the end")
        #expect(parseError("arg1") == "column 1: expected a condition, found the argument arg1")
        #expect(parseError("eq") == #"column 3: expected "(" after "eq", found the end"#)
    }

    @Test func deepTextNestingIsRefused() {
        let text = String(repeating: "not(", count: 100_000) + #"eq(arg1, "x")"# + String(repeating: ")", count: 100_000)
        #expect(parseError(text) == "column 801: nested deeper than 200 levels")
    }

    @Test func formattingEscapesTerminalControls() {
        let condition = try! TextSyntax.parse(#"eq(arg1, "\u001b[31m")"#)
        #expect(TextSyntax.format(condition) == #"eq(arg1, "\u001b[31m")"#)
        #expect(!TextSyntax.format(condition).unicodeScalars.contains("\u{1B}"))
    }
}

func threeDigits(_ value: Int) -> String {
    let digits = String(value)
    return String(repeating: "0", count: max(0, 3 - digits.count)) + digits
}
