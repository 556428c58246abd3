import FoundationEssentials
import Testing
@testable import CondtestKit

@Suite struct DecodingTests {
    func record(_ json: String) throws(ConditionError) -> ConditionRecord {
        try ConditionJSON.decode(ConditionRecord.self, from: Data(json.utf8))
    }

    func failure(_ json: String) -> String? {
        do {
            _ = try record(json)
            return nil
        } catch {
            return error.description
        }
    }

    let v1 = #"{"_id":"a","name":"n","condition":{"op":"eq","args":[{"type":"argument","argumentNumber":1},{"type":"string","value":"rollout.io"}]}}"#
    let v2 = #"{"_id":"a","name":"n","condition":{"op":"eq","args":[{"type":"arg","value":1},{"type":"string","data":"rollout.io"}]}}"#

    @Test func bothEncodingsDecodeToTheSameCondition() throws {
        let first = try record(v1)
        let second = try record(v2)
        #expect(first == second)
        #expect(first.condition.args == [.argument(1), .string("rollout.io")])
        #expect(first.argumentCount == 1)
    }

    @Test func encodingsMixWithinOneCondition() throws {
        let json = #"{"_id":"a","name":"n","condition":{"op":"and","args":[{"op":"ne","args":[{"type":"arg","value":1},{"type":"string","value":"x"}]},{"op":"eq","args":[{"type":"argument","argumentNumber":2},{"type":"string","data":"y"}]}]}}"#
        let decoded = try record(json)
        #expect(TextSyntax.format(decoded.condition) == #"and(ne(arg1, "x"), eq(arg2, "y"))"#)
        #expect(decoded.argumentCount == 2)
    }

    @Test func argumentsFieldWinsWhenItIsEnough() throws {
        let json = #"{"_id":"a","name":"n","arguments":3,"condition":{"op":"eq","args":[{"type":"arg","value":1},{"type":"string","data":"x"}]}}"#
        #expect(try record(json).argumentCount == 3)
        let tooFew = #"{"_id":"a","name":"n","arguments":1,"condition":{"op":"eq","args":[{"type":"arg","value":2},{"type":"string","data":"x"}]}}"#
        #expect(failure(tooFew) == #"arguments: the condition uses arg2, but "arguments" is 1"#)
    }

    @Test func unknownOperatorNamesThePathAndSuggests() {
        let json = #"{"_id":"a","name":"n","condition":{"op":"and","args":[{"op":"ne","args":[{"type":"arg","value":1},{"type":"string","data":"x"}]},{"op":"startWith","args":[{"type":"arg","value":1},{"type":"string","data":"r"}]}]}}"#
        #expect(failure(json) == #"condition.args[1].op: unknown operator "startWith" (did you mean "startsWith"?)"#)
    }

    @Test func wrongOperandKinds() {
        let json = #"{"condition":{"op":"and","args":[{"type":"string","value":"x"}]}}"#
        #expect(failure(json) == #"condition.args[0]: "and" takes conditions, found a string value"#)
        let nested = #"{"condition":{"op":"eq","args":[{"op":"not","args":[{"op":"eq","args":[{"type":"arg","value":1},{"type":"arg","value":1}]}]},{"type":"arg","value":1}]}}"#
        #expect(failure(nested) == #"condition.args[0]: "eq" takes strings and arguments, found a condition"#)
        let argument = #"{"condition":{"op":"not","args":[{"type":"arg","value":1}]}}"#
        #expect(failure(argument) == #"condition.args[0]: "not" takes conditions, found an argument"#)
    }

    @Test func wrongArity() {
        #expect(failure(#"{"condition":{"op":"eq","args":[{"type":"arg","value":1}]}}"#)
                == #"condition.args: "eq" takes 2 operands, found 1"#)
        #expect(failure(#"{"condition":{"op":"and","args":[]}}"#)
                == #"condition.args: "and" takes at least 1 condition, found 0"#)
        #expect(failure(#"{"condition":{"op":"not","args":[{"op":"eq","args":[{"type":"arg","value":1},{"type":"arg","value":1}]},{"op":"eq","args":[{"type":"arg","value":1},{"type":"arg","value":1}]}]}}"#)
                == #"condition.args: "not" takes 1 condition, found 2"#)
    }

    @Test func badArgumentNumbers() {
        for (value, text) in [("0", "0"), ("-3", "-3")] {
            let json = #"{"condition":{"op":"eq","args":[{"type":"arg","value":"# + value + #"},{"type":"string","data":"x"}]}}"#
            #expect(failure(json) == "condition.args[0].value: argument numbers run from 1 to 10000, found \(text)")
        }
        #expect(failure(#"{"condition":{"op":"eq","args":[{"type":"argument","argumentNumber":1.5},{"type":"string","data":"x"}]}}"#)
                == "condition.args[0].argumentNumber: expected a whole number")
        #expect(failure(#"{"condition":{"op":"eq","args":[{"type":"argument"},{"type":"string","data":"x"}]}}"#)
                == "condition.args[0].argumentNumber: missing")
    }

    @Test func wrongTypesAndShapes() {
        #expect(failure(#"{"condition":{"op":3,"args":[]}}"#) == "condition.op: expected an operator name string")
        #expect(failure(#"{"condition":{"args":[]}}"#) == "condition.op: missing")
        #expect(failure(#"{"condition":{"op":"and"}}"#) == "condition.args: missing")
        #expect(failure(#"{"condition":{"op":"and","args":{}}}"#) == "condition.args: expected an array of operands")
        #expect(failure(#"{"condition":{"op":"eq","args":["x",{"type":"arg","value":1}]}}"#)
                == "condition.args[0]: expected a condition, string or argument object, found a string")
        #expect(failure(#"{"condition":{"op":"eq","args":[{"type":"number","value":1},{"type":"arg","value":1}]}}"#)
                == #"condition.args[0].type: unknown operand type "number" (expected "string", "argument" or "arg")"#)
        #expect(failure(#"{"condition":{"op":"eq","args":[{"type":"string"},{"type":"arg","value":1}]}}"#)
                == #"condition.args[0].value: missing (a string needs "value" or "data")"#)
        #expect(failure(#"{"condition":{"op":"eq","args":[{"type":"string","value":7},{"type":"arg","value":1}]}}"#)
                == "condition.args[0].value: expected a string")
        #expect(failure(#"{"condition":[]}"#)
                == #"condition: expected a condition object {"op": …, "args": […]}, found an array"#)
    }

    @Test func malformedJSONAndBadBytes() {
        #expect(failure(#"{"condition":"#) == "not valid JSON")
        #expect(failure("") == "not valid JSON")
        let invalidUTF8 = Data([0x7B, 0x22, 0xFF, 0x22, 0x3A, 0x31, 0x7D])
        #expect(throws: ConditionError.notUTF8) { try ConditionJSON.decode(ConditionRecord.self, from: invalidUTF8) }
        let rawNUL = Data(#"{"condition":{"op":"eq","args":[{"type":"arg","value":1},{"type":"string","value":"a"#.utf8) + Data([0]) + Data(#""}]}}"#.utf8)
        #expect(throws: ConditionError.self) { try ConditionJSON.decode(ConditionRecord.self, from: rawNUL) }
    }

    @Test func escapedNULIsJustData() throws {
        let json = #"{"condition":{"op":"eq","args":[{"type":"arg","value":1},{"type":"string","value":"a\u0000b"}]}}"#
        let decoded = try record(json)
        #expect(Evaluator(decoded.condition).evaluate(["a\u{0}b"]))
        #expect(!Evaluator(decoded.condition).evaluate(["a"]))
        #expect(TextSyntax.format(decoded.condition) == #"eq(arg1, "a\u0000b")"#)
    }

    @Test func deepNestingIsRefusedNotACrash() {
        let depth = 100_000
        let json = String(repeating: #"{"op":"not","args":["#, count: depth)
            + #"{"op":"eq","args":[{"type":"arg","value":1},{"type":"string","value":"x"}]}"#
            + String(repeating: "]}", count: depth)
        #expect(throws: ConditionError(path: "", problem: "nested deeper than 200 levels")) {
            try ConditionJSON.decodeRecordOrCondition(Data(json.utf8), fallbackName: "x")
        }
    }

    @Test func nestingUpToTheLimitWorks() throws {
        let depth = Condition.maximumDepth - 1
        let json = String(repeating: #"{"op":"not","args":["#, count: depth)
            + #"{"op":"eq","args":[{"type":"arg","value":1},{"type":"string","value":"x"}]}"#
            + String(repeating: "]}", count: depth)
        let record = try ConditionJSON.decodeRecordOrCondition(Data(json.utf8), fallbackName: "x")
        // 199 nots around eq: odd count, so it is true exactly when arg1 is not "x".
        #expect(Evaluator(record.condition).evaluate(["y"]))
        #expect(!Evaluator(record.condition).evaluate(["x"]))
    }

    @Test func aTenMegabyteConditionDecodesAndEvaluates() throws {
        let operand = #"{"op":"eq","args":[{"type":"arg","value":1},{"type":"string","value":"value-NNNNNN"}]}"#
        var parts: [String] = []
        for index in 0..<120_000 { parts.append(operand.replacingOccurrences(of: "NNNNNN", with: String(index))) }
        let json = #"{"op":"or","args":["# + parts.joined(separator: ",") + "]}"
        #expect(json.utf8.count > 10_000_000)
        let record = try ConditionJSON.decodeRecordOrCondition(Data(json.utf8), fallbackName: "big")
        #expect(Evaluator(record.condition).evaluate(["value-119999"]))
        #expect(!Evaluator(record.condition).evaluate(["value-120000"]))
    }

    @Test func bareConditionOrFullRecord() throws {
        let bare = #"{"op":"eq","args":[{"type":"arg","value":1},{"type":"string","value":"x"}]}"#
        let fromBare = try ConditionJSON.decodeRecordOrCondition(Data(bare.utf8), fallbackName: "file.json")
        #expect(fromBare.name == "file.json")
        let fromRecord = try ConditionJSON.decodeRecordOrCondition(Data(v1.utf8), fallbackName: "file.json")
        #expect(fromRecord.name == "n")
        #expect(throws: ConditionError.self) { try ConditionJSON.decodeRecordOrCondition(Data("[1]".utf8), fallbackName: "f") }
    }

    @Test func encodingIsNormalised() throws {
        let decoded = try record(v2)
        let json = String(decoding: try JSONEncoder().encode(decoded.condition), as: UTF8.self)
        #expect(json.contains(#""argumentNumber":1"#))
        #expect(json.contains(#""type":"argument""#))
        #expect(json.contains(#""value":"rollout.io""#))
        #expect(!json.contains(#""data""#))
        let again = try ConditionJSON.decode(Condition.self, from: Data(json.utf8))
        #expect(again == decoded.condition)
    }
}

extension String {
    func replacingOccurrences(of target: String, with replacement: String) -> String {
        var result = ""
        var rest = Substring(self)
        while let range = rest.firstRange(of: target) {
            result += rest[..<range.lowerBound] + replacement
            rest = rest[range.upperBound...]
        }
        return result + rest
    }
}
