import Testing
@testable import CondtestKit
import ToolboxKit

@Suite struct EvaluationTests {
    func eval(_ text: String, _ arguments: String...) throws -> Bool {
        Evaluator(try TextSyntax.parse(text)).evaluate(arguments)
    }

    @Test func theBriefsExamples() throws {
        #expect(try eval(#"eq(arg1, "rollout.io")"#, "rollout.io"))
        #expect(try !eval(#"eq(arg1, "rollout.io")"#, "rollout.com"))
        let second = #"and(ne(arg1, "rollout.io"), containsString(arg1, "ro"))"#
        #expect(try eval(second, "robot"))
        #expect(try !eval(second, "rollout.io"))
        #expect(try !eval(second, "xyz"))
        let third = #"and(eq(arg1, "rollout.io"), eq(arg2, "control your production"))"#
        #expect(try eval(third, "rollout.io", "control your production"))
        #expect(try !eval(third, "rollout.io", "control your staging"))
    }

    @Test func constantsAndArgumentPairs() throws {
        #expect(try eval(#"eq("a", "a")"#))
        #expect(try !eval(#"eq("a", "b")"#))
        #expect(try eval(#"eq(arg1, arg2)"#, "x", "x"))
        #expect(try eval(#"startsWith("rollout", arg1)"#, "roll"))
    }

    @Test func explainShowsValuesResultsAndSkips() throws {
        let condition = try TextSyntax.parse(#"and(ne(arg1, "rollout.io"), containsString(arg1, "ro"))"#)
        let explanation = Explanation.of(condition, arguments: ["rollout.io"])
        #expect(explanation.result == false)
        #expect(explanation.render() == """
            and: false
              ne(arg1 = "rollout.io", "rollout.io"): false
              containsString(arg1, "ro"): skipped

            """)
        let or = try TextSyntax.parse(#"or(eq(arg1, "a"), not(eq(arg2, "b")))"#)
        #expect(Explanation.of(or, arguments: ["z", "b"]).render() == """
            or: false
              eq(arg1 = "z", "a"): false
              not: false
                eq(arg2 = "b", "b"): true

            """)
    }

    @Test func explainAgreesWithEval() throws {
        var generator = SeededGenerator(seed: 99)
        let conditions = try TextSyntaxTests.examples.map { try TextSyntax.parse($0) }
        let words = ["", "rollout.io", "ro", "robot", "beta", "app.staging.io", "x.io", "en_US", "control your production"]
        for _ in 0..<2000 {
            let condition = conditions[Int(generator.next() % UInt64(conditions.count))]
            let arguments = (0..<condition.highestArgument).map { _ in words[Int(generator.next() % UInt64(words.count))] }
            #expect(Explanation.of(condition, arguments: arguments).result == Evaluator(condition).evaluate(arguments))
        }
    }
}
