import Testing
@testable import CondtestKit

@Suite struct CaseLineTests {
    func parse(_ line: String) throws(CaseFileError) -> TestCase? { try CaseLine.parse(line, number: 7) }

    func problem(_ line: String) -> CaseFileError? {
        do { _ = try parse(line); return nil } catch { return error }
    }

    @Test func tsvCasesWithIdsAndExpressions() throws {
        #expect(try parse("5b8f\ttrue\trollout.io") == TestCase(conditionKey: "5b8f", arguments: ["rollout.io"], expect: true))
        #expect(try parse("=eq(arg1, arg2)\tfalse\ta\tb") ==
                TestCase(conditionKey: "=eq(arg1, arg2)", arguments: ["a", "b"], expect: false))
        // No field after EXPECT is no argument; an empty field is one empty argument.
        #expect(try parse("=eq(\"a\", \"a\")\ttrue")?.arguments == [])
        #expect(try parse("c\ttrue\t")?.arguments == [""])
        #expect(try parse("c\ttrue\t\t")?.arguments == ["", ""])
        #expect(try parse("c\ttrue\tx y")?.arguments == ["x y"])
    }

    @Test func blankAndCommentLinesAreSkipped() throws {
        for line in ["", "   ", "\t", "# a comment", "   # indented comment", "#\ttrue\tx"] {
            #expect(try parse(line) == nil)
        }
    }

    @Test func jsonLinesCases() throws {
        #expect(try parse(#"{"condition": "5b8f", "args": ["x"], "expect": true, "name": "first"}"#) ==
                TestCase(conditionKey: "5b8f", arguments: ["x"], expect: true, name: "first"))
        // A string holding "(" or starting with "=" is a text expression.
        #expect(try parse(#"{"condition": "eq(arg1, \"x\")", "args": ["x"], "expect": false}"#)?.conditionKey == #"=eq(arg1, "x")"#)
        #expect(try parse(#"{"condition": "=eq(arg1, \"x\")", "args": ["x"], "expect": false}"#)?.conditionKey == #"=eq(arg1, "x")"#)
        let inline = try #require(try parse(
            #"  {"expect": true, "condition": {"op": "eq", "args": [{"type": "argument", "argumentNumber": 1}, {"type": "string", "value": "x"}]}, "args": ["x"]}"#))
        #expect(inline.conditionKey == #"=eq(arg1, "x")"#)
        #expect(inline.inlineCondition == (try TextSyntax.parse(#"eq(arg1, "x")"#)))
        #expect(try parse(#"{"condition": "=eq(\"a\", \"a\")", "expect": true}"#)?.arguments == [])
    }

    @Test func everyTSVErrorSaysWhereAndWhatWasExpected() {
        #expect(problem("5b8f") == CaseFileError(line: 7, column: 5, problem: "expected a tab and true or false after the condition"))
        #expect(problem("5b8f\tyes\tx") == CaseFileError(line: 7, column: 6, problem: #"expected true or false, found "yes""#))
        #expect(problem("5b8f\t\tx") == CaseFileError(line: 7, column: 6, problem: "expected true or false, found nothing"))
        #expect(problem("5b8f\tTrue") == CaseFileError(line: 7, column: 6, problem: #"expected true or false, found "True""#))
        #expect(problem("=\ttrue") == CaseFileError(line: 7, column: 2, problem: #"expected a text expression after "=""#))
        #expect(problem(" 5b8f\ttrue") == CaseFileError(line: 7, column: 1, problem: "expected a condition id or =expression, found blank space"))
        #expect(problem(String(repeating: "a", count: 5000) + "\ttrue")?.problem == "condition id longer than 4096 bytes")
    }

    @Test func everyJSONErrorSaysWhereAndWhatWasExpected() {
        #expect(problem("{nope") == CaseFileError(line: 7, column: 1, problem: "not valid JSON"))
        #expect(problem(#"{"condition": "c", "args": ["x"]}"#)?.problem.hasPrefix("expect:") == true)
        #expect(problem(#"{"args": ["x"], "expect": true}"#)?.problem.hasPrefix("condition:") == true)
        #expect(problem(#"{"condition": "c", "args": [1], "expect": true}"#) ==
                CaseFileError(line: 7, column: 28, problem: "args[0]: expected a string, found number"))
        #expect(problem(#"{"condition": "c", "args": [], "expect": "yes"}"#) ==
                CaseFileError(line: 7, column: 42, problem: "expect: expected true or false, found a string"))
        #expect(problem(#"{"condition": "c", "argz": [], "expect": true}"#) ==
                CaseFileError(line: 7, column: 28, problem: "argz: unknown key (a case has condition, args, expect and name)"))
        #expect(problem(#"{"condition": {"op": "eqq", "args": []}, "expect": true}"#) ==
                CaseFileError(line: 7, column: 15, problem: #"condition.op: unknown operator "eqq" (did you mean "eq"?)"#))
        #expect(problem(#"{"condition": "", "expect": true}"#) ==
                CaseFileError(line: 7, column: 15, problem: "condition: expected a condition id, a text expression or ConditionData"))
        #expect(problem(#"{"condition": 5, "expect": true}"#)?.column == 15)
        // Only an object is a JSON case; anything else is read as TSV.
        #expect(problem(#"["condition"]"#)?.problem == "expected a tab and true or false after the condition")
    }

    @Test func theErrorNamesTheFileForTheTool() {
        let error = CaseFileError(line: 3, column: 9, problem: "expected true or false, found nothing")
        #expect(error.toolError(file: "cases.tsv") == .badData("cases.tsv:3:9: expected true or false, found nothing"))
    }
}
