import ScreenDriver
import ScreenKit
import Testing
import ToolboxKit
@testable import BlogctlKit

/// `blogctl ui`'s reading pane and the keys that move between list and post.
@Suite struct PostBrowserReadingTests: BrowserTesting {
    @Test func readingScrollsFindsAndMovesToTheNextPost() {
        var browser = loaded()
        _ = browser.handle(.enter)
        let body = (1...100).map { "line \($0)" } + ["the needle here"]
        _ = browser.receive(.post(id: "a1", .success(text("a1", lines: body, links: ["https://example.com/", "mailto:x@y"]))))
        var view = ScreenDriver.screen(&browser)
        #expect(view.contains("zebra crossings"))
        #expect(view.contains("By Ada Lovelace, Writer"))
        #expect(view.contains("line 1\n"))
        for key: KeyPress in [.character(" "), .pageDown] { _ = browser.handle(key) }
        view = ScreenDriver.screen(&browser)
        #expect(!view.contains("line 1\n") && view.contains("line 40"))
        for key: KeyPress in [.character("b"), .pageUp, .character("g")] { _ = browser.handle(key) }
        #expect(ScreenDriver.screen(&browser).contains("line 1\n"))
        _ = browser.handle(.character("G"))
        #expect(ScreenDriver.screen(&browser).contains("the needle here"))
        _ = browser.handle(.character("g"))
        _ = browser.handle(.character("/"))
        ScreenDriver.type("NEEDLE", into: &browser)
        _ = browser.handle(.enter)
        #expect(ScreenDriver.screen(&browser).contains("the needle here"))
        _ = browser.handle(.character("g"))
        _ = browser.handle(.character("n"))
        #expect(ScreenDriver.screen(&browser).contains("the needle here"))
        _ = browser.handle(.character("N"))
        #expect(ScreenDriver.screen(&browser).contains("the needle here"))
        _ = browser.handle(.character("/"))
        ScreenDriver.type("absent", into: &browser)
        _ = browser.handle(.enter)
        #expect(ScreenDriver.screen(&browser).contains("not found: absent"))
        // ] opens the next post in list order (m2, banana); [ goes back.
        do { let value = browser.handle(.character("]")); #expect(value == [.openPost(id: "m2", width: 78), .mark(ids: ["m2"], read: true)]) }
        do { let value = browser.handle(.character("[")); #expect(value == [.openPost(id: "a1", width: 78)]) }
    }

    @Test func linksOpenThroughTheBrowserHttpOnly() {
        var browser = loaded()
        _ = browser.handle(.enter)
        _ = browser.receive(.post(id: "a1", .success(text("a1", lines: ["text"], links: ["https://example.com/a", "mailto:x@y"]))))
        _ = browser.handle(.character("l"))
        #expect(ScreenDriver.screen(&browser).contains("[1] https://example.com/a"))
        do { let value = browser.handle(.enter); #expect(value == [.openLink("https://example.com/a")]) }
        _ = browser.handle(.character("l"))
        _ = browser.handle(.down)
        do { let value = browser.handle(.enter); #expect(value == []) }
        #expect(ScreenDriver.screen(&browser).contains("only http and https"))
        _ = browser.handle(.character("l"))
        _ = browser.handle(.escape)
        #expect(browser.reader?.linkList == nil)
        _ = browser.receive(.opened(url: "https://example.com/a", .missing("no browser to open it")))
        #expect(ScreenDriver.screen(&browser).contains("no browser to open it"))
    }

    @Test func aResizeWhileReadingLaysTheBodyOutAgain() {
        var browser = loaded()
        _ = browser.handle(.enter)
        _ = browser.receive(.post(id: "a1", .success(text("a1", lines: ["a line of the body"]))))
        do { let value = browser.resized(rows: 16, columns: 60); #expect(value == [.render(id: "a1", width: 58)]) }
        _ = browser.receive(.rendered(id: "a1", width: 58, text("a1", lines: ["laid out again"])))
        #expect(ScreenDriver.screen(&browser, rows: 16, columns: 60).contains("laid out again"))
        // A layout for a width no longer current is dropped.
        _ = browser.receive(.rendered(id: "a1", width: 100, text("a1", lines: ["stale"])))
        #expect(!ScreenDriver.screen(&browser, rows: 16, columns: 60).contains("stale"))
    }

    @Test func theRestOfTheKeysMoveOpenAndGoBack() {
        var browser = loaded()
        for (key, expected) in [(KeyPress.control("d"), 2), (.end, 6), (.control("u"), 4), (.home, 0), (.wheelDown, 1), (.wheelUp, 0),
                                (.character("j"), 1), (.down, 2), (.character("k"), 1), (.up, 0), (.character("G"), 6), (.character("g"), 0)] {
            _ = browser.handle(key)
            #expect(browser.postList.list.selection == expected, "\(key.name)")
        }
        do { let value = browser.handle(.right); #expect(value.first == .openPost(id: "a1", width: 78)) }
        _ = browser.receive(.post(id: "a1", .success(text("a1", lines: ["body"]))))
        for back: KeyPress in [.left, .character("q"), .escape] {
            #expect(browser.reader != nil)
            do { let value = browser.handle(back); #expect(value == [], "\(back.name): a loaded post has nothing to stop") }
            #expect(browser.reader == nil, "\(back.name)")
            _ = browser.handle(.enter)
            _ = browser.receive(.post(id: "a1", .success(text("a1", lines: ["body"]))))
        }
        // r on the list reloads it; a click on a post's second row reads it.
        _ = browser.handle(.escape)
        do { let value = browser.handle(.character("r")); #expect(value == [.loadList]) }
        _ = ScreenDriver.screen(&browser)
        do { let value = browser.handle(.click(row: 4, column: 5)); #expect(value.first == .openPost(id: "m2", width: 78)) }
    }
}

/// Issue 38, item 2: a cached post is offline only when the server could not be reached.
extension PostBrowserReadingTests {
    @Test func aCachedPostIsOfflineOnlyWhenTheServerCannotBeReached() {
        var browser = loaded()
        _ = browser.handle(.enter)
        _ = browser.receive(.post(id: "a1", .success(text("a1", lines: ["from the cache"]))))
        #expect(browser.status.online && !ScreenDriver.screen(&browser).contains("cannot be reached"))
        _ = browser.receive(.cachedOnly(id: "a1"))
        #expect(!browser.status.online && ScreenDriver.screen(&browser).contains("the server cannot be reached: the cached copy"))
        // Another post's news changes nothing here.
        var other = loaded()
        _ = other.handle(.enter)
        _ = other.receive(.cachedOnly(id: "zz"))
        #expect(other.status.online)
    }
}

/// Issue 38, item 6: the reader shows where it is and keeps its place when laid out again.
extension PostBrowserReadingTests {
    @Test func theReaderShowsItsPositionAndKeepsItsPlaceAcrossAResize() {
        var browser = loaded()
        _ = browser.handle(.enter)
        _ = browser.receive(.post(id: "a1", .success(text("a1", lines: (0..<1_000).map { "line \($0)" }))))
        #expect(ScreenDriver.screen(&browser).split(separator: "\n")[0].hasSuffix("Top"))
        _ = browser.handle(.character("G"))
        #expect(ScreenDriver.screen(&browser).split(separator: "\n")[0].hasSuffix("End"))
        for _ in 0..<30 { _ = browser.handle(.pageUp) }
        let before = ScreenDriver.screen(&browser)
        let percent = before.split(separator: "\n")[0].split(separator: " ").last.map(String.init) ?? ""
        #expect(percent.hasSuffix("%"), "\(percent)")
        // Laid out again at a new width, twice as long: the same share of it above the view.
        let width = browser.paneWidth
        _ = browser.receive(.rendered(id: "a1", width: width, text("a1", lines: (0..<2_000).map { "row \($0)" })))
        let after = ScreenDriver.screen(&browser)
        let afterPercent = after.split(separator: "\n")[0].split(separator: " ").last.map(String.init) ?? ""
        // The share above the view is kept; the figure shown counts to the view's end, a page later.
        #expect(abs((Int(afterPercent.dropLast()) ?? 0) - (Int(percent.dropLast()) ?? 0)) <= 2, "\(afterPercent) vs \(percent)")
        #expect(!after.contains("row 0\n") && !after.contains("row 1999"))
    }
}
