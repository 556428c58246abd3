import ScreenDriver
import ScreenKit
import Testing
import ToolboxKit
@testable import CondtestKit

/// `condtest ui`'s screens as whole frames (text and attributes) at 60×16 and 80×24, against
/// the golden files in Frames/; and the help that fits and scrolls at the smallest size.
@Suite struct ConditionFrameTests {
    static let sizes = [(rows: 16, columns: 60), (rows: 24, columns: 80)]

    func driver(rows: Int, columns: Int) -> ScreenDriver<ConditionBrowser> {
        var driver = ScreenDriver(ConditionBrowser(server: "http://127.0.0.1:8106", casesPath: nil), rows: rows, columns: columns)
        #expect(driver.commands == [.loadList])
        driver.receive(.list(.success(ConditionBrowserTests.summaries)))
        return driver
    }

    @Test func theListAndItsHelp() {
        for size in Self.sizes {
            var driver = driver(rows: size.rows, columns: size.columns)
            driver.press(.down)
            #expect(GoldenFrame.matches(driver.frame, named: "list-\(size.columns)x\(size.rows)"))
            driver.press(.character("?"))
            #expect(GoldenFrame.matches(driver.frame, named: "list-help-\(size.columns)x\(size.rows)"))
        }
    }

    /// Issue 47: a filter in force is named in the status line, beside what it leaves.
    @Test func aFilterInForceIsNamed() {
        var driver = driver(rows: 16, columns: 60)
        driver.press(.character("/"), .character("r"), .character("o"), .enter)
        #expect(GoldenFrame.matches(driver.frame, named: "list-filtered-60x16"))
    }

    @Test func theTesterAfterATest() throws {
        for size in Self.sizes {
            var driver = driver(rows: size.rows, columns: size.columns)
            driver.press(.end, .enter)
            let record = try ConditionRecord(name: "c3", id: "c3", condition: TextSyntax.parse(#"and(eq(arg1, "a"), eq(arg2, "b"))"#))
            driver.receive(.condition(id: "c3", .success(record)))
            driver.type("a")
            driver.press(.tab)
            driver.type("b")
            driver.press(.enter)
            #expect(GoldenFrame.matches(driver.frame, named: "tester-\(size.columns)x\(size.rows)"))
        }
    }

    /// Item 5: every key of the tester's help can be reached at 60×16, and in a field the
    /// status line names F1, which opens it (`?` is text there).
    @Test func theTestersHelpScrollsToItsLastKeyAndF1OpensItFromAField() throws {
        var driver = driver(rows: 16, columns: 60)
        driver.press(.enter)
        driver.receive(.condition(id: "c1", .success(try ConditionRecord(name: "c1", id: "c1", condition: TextSyntax.parse(#"eq(arg1, "x")"#)))))
        #expect(driver.screen.split(separator: "\n").last?.hasSuffix("F1 help") == true)
        driver.type("?")
        #expect(driver.program.tester?.arguments == ["?"])
        driver.press(.function(1))
        #expect(driver.program.showsHelp)
        #expect(driver.screen.contains("Ctrl-U Ctrl-W Ctrl-K"))
        driver.press(.end)
        #expect(driver.screen.contains("back to the list"))
        driver.press(.character("x"))
        #expect(!driver.program.showsHelp)
        #expect(driver.program.tester?.arguments == ["?"], "the key that closes the help does nothing else")
    }

    /// The list's help has more keys than 16 rows show: it scrolls to the last, and says so.
    @Test func theListsHelpScrollsAt60x16() {
        var driver = driver(rows: 16, columns: 60)
        driver.press(.character("?"))
        #expect(driver.screen.contains("1–12 of 16 · j/k scroll"))
        #expect(!driver.screen.contains("quit"))
        driver.press(.end)
        #expect(driver.program.showsHelp, "scrolling keeps the help open")
        #expect(driver.screen.contains("quit"))
        driver.press(.character("q"))
        #expect(!driver.program.showsHelp && driver.program.outcome == nil, "q closes the help, and only that")
    }
}
