import ScreenDriver
import ScreenKit
import Testing
import ToolboxKit
@testable import CondtestKit

/// `condtest ui`'s two screens, key by key, without a terminal.
@Suite struct ConditionBrowserTests {
    static let summaries = [ConditionSummary(name: "Domain is rollout.io", id: "c1"),
                            ConditionSummary(name: "Slogan contains", id: "c2"),
                            ConditionSummary(name: "Two arguments", id: "c3")]

    func record(_ id: String, _ text: String) throws -> ConditionRecord {
        try ConditionRecord(name: id, id: id, condition: TextSyntax.parse(text))
    }

    func loaded(cases: String? = "cases.tsv") -> ConditionBrowser {
        var browser = ConditionBrowser(server: "http://127.0.0.1:8106", casesPath: cases)
        do { let value = browser.start(); #expect(value == [.loadList]) }
        #expect(browser.isBusy)
        _ = browser.receive(.list(.success(Self.summaries)))
        return browser
    }



    @Test func theListShowsNamesOnlyAndFilters() {
        var browser = loaded()
        #expect(!browser.isBusy)
        var text = ScreenDriver.screen(&browser, rows: 16, columns: 60)
        #expect(text.contains(" Domain is rollout.io"))
        #expect(!text.contains("c1"))
        #expect(text.contains("3 conditions"))
        _ = browser.handle(.character("/"))
        ScreenDriver.type("slo", into: &browser)
        text = ScreenDriver.screen(&browser, rows: 16, columns: 60)
        #expect(!text.contains("Domain"))
        #expect(text.contains("1 of 3 conditions"))
        _ = browser.handle(.enter)
        do { let value = browser.handle(.enter); #expect(value == [.loadCondition(id: "c2")]) }
    }

    @Test func enterOpensTheTesterWhichFollowsEveryEdit() throws {
        var browser = loaded()
        do { let value = browser.handle(.enter); #expect(value == [.loadCondition(id: "c1")]) }
        #expect(browser.isBusy)
        #expect(ScreenDriver.screen(&browser, rows: 16, columns: 60).contains("loading"))
        _ = browser.receive(.condition(id: "c1", .success(try record("c1", #"eq(arg1, "rollout.io")"#))))
        ScreenDriver.type("rollout.i", into: &browser)
        #expect(browser.tester?.result == false)
        ScreenDriver.type("o", into: &browser)
        #expect(browser.tester?.result == true)
        let text = ScreenDriver.screen(&browser, rows: 16, columns: 60)
        #expect(text.contains(#"eq(arg1, "rollout.io")"#))
        #expect(text.contains("arg1 rollout.io"))
        #expect(text.contains("[ Test ]  result: true"))
        #expect(!text.contains("explain:"))
        _ = browser.handle(.enter)
        let tested = ScreenDriver.screen(&browser, rows: 16, columns: 60)
        #expect(tested.contains("explain:"))
        #expect(tested.contains(#"eq(arg1 = "rollout.io", "rollout.io"): true"#))
    }

    @Test func tabMovesBetweenFieldsAndButtonAndAAppendsACase() throws {
        var browser = loaded()
        _ = browser.handle(.end)
        _ = browser.handle(.enter)
        _ = browser.receive(.condition(id: "c3", .success(try record("c3", #"and(eq(arg1, "a"), eq(arg2, "b"))"#))))
        ScreenDriver.type("a", into: &browser)
        _ = browser.handle(.tab)
        ScreenDriver.type("b", into: &browser)
        #expect(browser.tester?.arguments == ["a", "b"])
        _ = browser.handle(.tab)
        #expect(browser.tester?.isOnButton == true)
        do { let value = browser.handle(.character("a")); #expect(value == [.appendCase(line: "c3\ttrue\ta\tb", path: "cases.tsv")]) }
        _ = browser.handle(.backTab)
        _ = browser.handle(.backspace)
        #expect(browser.tester?.arguments == ["a", ""])
        _ = browser.handle(.backTab)
        do { let value = browser.handle(.character("a")); #expect(value.isEmpty) }
        #expect(browser.tester?.arguments == ["aa", ""])
        _ = browser.receive(.appended(.success("c3\ttrue\ta\tb")))
        #expect(ScreenDriver.screen(&browser, rows: 16, columns: 60).contains("appended: c3 true a b"))
    }

    @Test func withoutCasesFileAppendingSaysHow() throws {
        var browser = loaded(cases: nil)
        _ = browser.handle(.enter)
        _ = browser.receive(.condition(id: "c1", .success(try record("c1", #"eq(arg1, "x")"#))))
        _ = browser.handle(.tab)
        do { let value = browser.handle(.character("a")); #expect(value.isEmpty) }
        #expect(ScreenDriver.screen(&browser, rows: 16, columns: 60).contains("give --cases FILE"))
    }

    @Test func qAndEscGoBackQOnTheListQuits() throws {
        var browser = loaded()
        _ = browser.handle(.enter)
        _ = browser.receive(.condition(id: "c1", .success(try record("c1", #"eq(arg1, "x")"#))))
        _ = browser.handle(.character("q"))
        #expect(browser.tester?.arguments == ["q"], "q is text in a field")
        _ = browser.handle(.escape)
        #expect(browser.tester == nil)
        #expect(browser.outcome == nil)
        _ = browser.handle(.enter)
        _ = browser.receive(.condition(id: "c1", .success(try record("c1", #"eq(arg1, "x")"#))))
        _ = browser.handle(.tab)
        _ = browser.handle(.character("q"))
        #expect(browser.tester == nil)
        _ = browser.handle(.character("q"))
        #expect(browser.outcome == 0)
    }

    @Test func aConditionTheServerCannotGiveShowsItsErrorAndTheListStaysUsable() {
        var browser = loaded()
        _ = browser.handle(.down)
        _ = browser.handle(.enter)
        _ = browser.receive(.condition(id: "c2", .failure(.badData("condition c2: unknown operator \"fuzzy\""))))
        let text = ScreenDriver.screen(&browser, rows: 16, columns: 60)
        #expect(text.contains("error: condition c2: unknown operator \"fuzzy\""))
        do { let value = browser.handle(.character("r")); #expect(value == [.loadCondition(id: "c2")]) }
        _ = browser.handle(.escape)
        _ = browser.handle(.down)
        do { let value = browser.handle(.enter); #expect(value == [.loadCondition(id: "c3")]) }
        // A late answer for a condition no longer open changes nothing.
        _ = browser.receive(.condition(id: "c2", .failure(.notFound(what: "condition c2"))))
        #expect(browser.tester?.summary.id == "c3")
    }

    @Test func escWhileLoadingStopsTheLoad() {
        var browser = loaded()
        _ = browser.handle(.enter)
        do { let value = browser.handle(.escape); #expect(value == [.stopLoading]) }
        #expect(browser.tester == nil)
        #expect(ConditionBrowser.Command.stopLoading.policy == ConditionBrowser.Command.loadCondition(id: "c1").policy)
    }

    @Test func offlineTheStatusLineSaysSoAndRRetries() {
        var browser = ConditionBrowser(server: "http://127.0.0.1:9", casesPath: nil)
        _ = browser.start()
        _ = browser.receive(.list(.failure(.unreachable(url: "http://127.0.0.1:9/conditions", reason: "connection refused"))))
        let text = ScreenDriver.screen(&browser, columns: 120)
        #expect(text.contains("(offline)"))
        // Issue 38, item 3: the reason first, so that a narrow status line keeps it.
        #expect(text.contains("connection refused (/conditions)"))
        #expect(ScreenDriver.screen(&browser, columns: 60).contains("connection refused"))
        do { let value = browser.handle(.character("r")); #expect(value == [.loadList]) }
        _ = browser.receive(.list(.success(Self.summaries)))
        #expect(!ScreenDriver.screen(&browser, columns: 120).contains("offline"))
    }

    @Test func helpShowsEveryKeyOfTheScreenAndAnyKeyClosesIt() {
        var browser = loaded()
        _ = browser.handle(.character("?"))
        let text = ScreenDriver.screen(&browser, rows: 24, columns: 80)
        for binding in ConditionBrowser.listKeys.bindings { #expect(text.contains(binding.label)) }
        _ = browser.handle(.character("j"))
        #expect(browser.showsHelp == false)
        #expect(browser.list.selection == 0, "the key that closes help does nothing else")
    }

    @Test func theResultMatchesTheEvaluator() throws {
        let condition = try TextSyntax.parse(#"or(containsString(arg1, "ro"), eq(arg2, "x"))"#)
        for arguments in [["rollout", "y"], ["abc", "x"], ["abc", "y"], ["", ""]] {
            var tester = ConditionTester(summary: ConditionSummary(name: "n", id: "i"))
            tester.loaded(try ConditionRecord(name: "n", id: "i", condition: condition))
            for (index, argument) in arguments.enumerated() {
                for character in argument { _ = tester.handle(.character(character)) }
                if index == 0 { _ = tester.handle(.tab) }
            }
            let typed = arguments.contains { !$0.isEmpty }
            #expect(tester.result == (typed ? Evaluator(condition).evaluate(arguments) : nil), "\(arguments)")
            tester.test()
            #expect(tester.result == Evaluator(condition).evaluate(arguments), "\(arguments)")
        }
    }

    /// A condition just opened has not been tested: no result is shown for arguments nobody
    /// typed, and `a` asks for a test before it appends a case.
    @Test func aConditionJustOpenedShowsNoResult() throws {
        var browser = loaded()
        _ = browser.handle(.enter)
        _ = browser.receive(.condition(id: "c1", .success(try record("c1", #"eq(arg1, "rollout.io")"#))))
        #expect(browser.tester?.result == nil)
        let text = ScreenDriver.screen(&browser, rows: 16, columns: 60)
        #expect(text.contains("result: not tested"))
        #expect(!text.contains("result: false"))
        _ = browser.handle(.tab)
        _ = browser.handle(.enter)
        #expect(browser.tester?.result == false)
        #expect(ScreenDriver.screen(&browser, rows: 16, columns: 60).contains("[ Test ]  result: false"))
    }

    @Test func caseLinesReadBackAsTheSameCase() throws {
        #expect(try CaseFileLine.line(conditionID: "c1", arguments: ["rollout.io"], expect: true) == "c1\ttrue\trollout.io")
        #expect(try CaseFileLine.line(conditionID: "c1", arguments: [], expect: false) == "c1\tfalse")
        // An id starting with = reads as an expression in either form: it cannot be a case.
        #expect(throws: ToolError.self) { try CaseFileLine.line(conditionID: "=x", arguments: [], expect: true) }
        for (id, arguments) in [("c1", ["a\tb"]), ("#c", [""]), (" c", ["x"]), ("c1", ["line\nbreak", "\u{202E}"])] {
            let line = try CaseFileLine.line(conditionID: id, arguments: arguments, expect: true)
            #expect(line.hasPrefix("{"))
            let parsed = try #require(try CaseLine.parse(line))
            #expect(parsed.conditionKey == id && parsed.arguments == arguments && parsed.expect)
        }
    }
}

/// Issue 38, item 1: Esc never quits from the first screen; it clears a filter kept there.
extension ConditionBrowserTests {
    @Test func escOnTheFirstScreenClearsAFilterAndNeverQuits() {
        var browser = loaded()
        _ = browser.handle(.escape)
        #expect(browser.outcome == nil)
        for key: KeyPress in [.character("/"), .character("z"), .character("z"), .character("z"), .enter] { _ = browser.handle(key) }
        #expect(browser.list.shownCount == 0)
        _ = browser.handle(.escape)
        #expect(browser.list.shownCount == browser.list.totalCount && browser.outcome == nil)
        _ = browser.handle(.escape)
        #expect(browser.outcome == nil)
        _ = browser.handle(.character("q"))
        #expect(browser.outcome == 0)
    }
}
