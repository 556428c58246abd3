import ScreenDriver
import ScreenKit
import Testing
import ToolboxKit
@testable import BlogctlKit

/// `blogctl ui`'s screens as whole frames at 60×16 and 80×24: the list, a post, the help.
@Suite struct PostFrameTests: BrowserTesting {
    @Test func theListAPostAndTheHelp() throws {
        for (rows, columns) in [(16, 60), (24, 80)] {
            var driver = ScreenDriver(PostBrowser(server: "http://127.0.0.1:8106", arrangement: Arrangement()), rows: rows, columns: columns)
            #expect(driver.commands == [.loadList])
            driver.receive(.listing(Fixtures.posts, read: ["a2"], fromServer: true))
            #expect(GoldenFrame.matches(driver.frame, named: "list-\(columns)x\(rows)"))
            driver.press(.character("?"))
            #expect(GoldenFrame.matches(driver.frame, named: "list-help-\(columns)x\(rows)"))
            driver.press(.end)
            #expect(driver.screen.contains("quit"), "the help scrolls to its last key")
            driver.press(.character("x"))
            driver.press(.enter)
            let lines = (1...40).map { "line \($0) of the post" }
            driver.receive(.post(id: "a1", .success(text("a1", lines: lines))))
            driver.press(.pageDown)
            #expect(GoldenFrame.matches(driver.frame, named: "reader-\(columns)x\(rows)"))
        }
    }

    /// Issue 47: a filter being typed is named in the status line, beside what it leaves.
    @Test func aFilterIsNamed() {
        var driver = ScreenDriver(PostBrowser(server: "http://127.0.0.1:8106", arrangement: Arrangement()), rows: 16, columns: 60)
        driver.receive(.listing(Fixtures.posts, read: ["a2"], fromServer: true))
        driver.press(.character("/"), .character("a"), .character("d"), .character("a"))
        #expect(GoldenFrame.matches(driver.frame, named: "list-filtered-60x16"))
    }

    /// Item 10: `/` filters the list as you type (title, author or summary).
    @Test func slashFiltersAsYouType() {
        var driver = ScreenDriver(PostBrowser(server: "http://127.0.0.1:8106", arrangement: Arrangement()))
        driver.receive(.listing(Fixtures.posts, read: [], fromServer: true))
        driver.press(.character("/"))
        #expect(driver.type("dijk").isEmpty, "no search runs while typing")
        #expect(driver.program.postList.list.shownCount == Fixtures.posts.count { $0.author.name.contains("Dijkstra") })
        #expect(!driver.screen.contains("zebra"))
        #expect(driver.press(.enter) == [.search("dijk")], "Enter searches the bodies with the same words")
    }
}
