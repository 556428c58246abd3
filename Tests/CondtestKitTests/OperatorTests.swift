import Testing
@testable import CondtestKit

@Suite struct OperatorTests {
    func holds(_ op: any ValueOperator.Type, _ a: String, _ b: String) -> Bool {
        ArgumentBytes([a, b]).withTexts { op.holds($0[0], $0[1]) }
    }

    @Test func equalsIsExact() {
        #expect(holds(Equals.self, "rollout.io", "rollout.io"))
        #expect(!holds(Equals.self, "rollout.io", "Rollout.io"))
        #expect(!holds(Equals.self, "rollout.io", "rollout.io "))
        #expect(holds(Equals.self, "", ""))
        // Precomposed é and e + combining acute are different scalars: no normalisation.
        #expect(!holds(Equals.self, "caf\u{E9}", "cafe\u{301}"))
    }

    @Test func notEqualsIsTheOpposite() {
        #expect(!holds(NotEquals.self, "a", "a"))
        #expect(holds(NotEquals.self, "a", "A"))
        #expect(holds(NotEquals.self, "caf\u{E9}", "cafe\u{301}"))
    }

    @Test func containsString() {
        #expect(holds(ContainsString.self, "rollout.io", "ro"))
        #expect(holds(ContainsString.self, "rollout.io", "t.i"))
        #expect(holds(ContainsString.self, "rollout.io", "rollout.io"))
        #expect(holds(ContainsString.self, "abc", ""))
        #expect(holds(ContainsString.self, "", ""))
        #expect(!holds(ContainsString.self, "", "a"))
        #expect(!holds(ContainsString.self, "ro", "rollout"))
        #expect(!holds(ContainsString.self, "rollout.io", "RO"))
        #expect(holds(ContainsString.self, "aaab", "aab"))
        #expect(holds(ContainsString.self, "日本語テキスト", "語テ"))
        #expect(!holds(ContainsString.self, "cafe\u{301}", "caf\u{E9}"))
    }

    @Test func startsWith() {
        #expect(holds(StartsWith.self, "rollout.io", "ro"))
        #expect(holds(StartsWith.self, "rollout.io", ""))
        #expect(!holds(StartsWith.self, "rollout.io", "io"))
        #expect(!holds(StartsWith.self, "r", "ro"))
    }

    @Test func endsWith() {
        #expect(holds(EndsWith.self, "rollout.io", ".io"))
        #expect(holds(EndsWith.self, "rollout.io", ""))
        #expect(!holds(EndsWith.self, "rollout.io", "ro"))
        #expect(!holds(EndsWith.self, "o", "io"))
    }

    @Test func logicalOperatorsShortCircuit() {
        var asked: [Int] = []
        #expect(!And.evaluate(count: 3) { asked.append($0); return $0 != 1 })
        #expect(asked == [0, 1])
        asked = []
        #expect(Or.evaluate(count: 3) { asked.append($0); return $0 == 1 })
        #expect(asked == [0, 1])
        asked = []
        #expect(And.evaluate(count: 2) { asked.append($0); return true })
        #expect(asked == [0, 1])
        #expect(!Or.evaluate(count: 2) { _ in false })
        #expect(Not.evaluate(count: 1) { _ in false })
        #expect(!Not.evaluate(count: 1) { _ in true })
    }

    @Test func registryListsEveryOperatorWithItsShape() {
        let registry = OperatorRegistry.standard
        #expect(registry.entries.map(\.name) == ["eq", "ne", "containsString", "startsWith", "endsWith", "and", "or", "not"])
        #expect(registry.entry("and")?.arity == .atLeast(1))
        #expect(registry.entry("not")?.arity == .exactly(1))
        #expect(registry.entry("eq")?.kind == .values)
        #expect(registry.entry("or")?.kind == .conditions)
    }

    @Test func suggestionsForTypos() {
        let registry = OperatorRegistry.standard
        #expect(registry.suggestion(for: "startWith") == "startsWith")
        #expect(registry.suggestion(for: "contains") == "containsString")
        #expect(registry.suggestion(for: "EQ") == "eq")
        #expect(registry.suggestion(for: "frobnicate") == nil)
    }

    /// Adding an operator is one type and one registration.
    enum Matches: ValueOperator {
        static let name = "sameLength"
        static let summary = "the strings have the same number of bytes"
        static func holds(_ left: Text, _ right: Text) -> Bool { left.count == right.count }
    }

    @Test func aNewOperatorIsOneTypeAndOneRegistration() throws {
        let registry = OperatorRegistry(values: [Equals.self, Matches.self], logical: [And.self])
        let condition = try TextSyntax.parse(#"and(sameLength(arg1, "abc"), eq(arg2, "x"))"#, registry: registry)
        #expect(Evaluator(condition, registry: registry).evaluate(["xyz", "x"]))
        #expect(!Evaluator(condition, registry: registry).evaluate(["xy", "x"]))
        #expect(throws: ConditionError.self) { try TextSyntax.parse(#"sameLength(arg1, "a")"#) }
    }
}
