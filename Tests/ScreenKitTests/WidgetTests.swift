import Testing
@testable import ScreenKit

@Suite struct WidgetTests {
    @Test func textPaneWrapsAtSpacesKeepingTheIndent() {
        #expect(TextPane.wrap("  and(ne(arg1, x), y)", width: 14) == ["  and(ne(arg1,", "  x), y)"])
        let rows = TextPane.wrap("  one two three four", width: 10)
        #expect(rows.allSatisfy { $0.count <= 10 })
        #expect(rows.dropFirst().allSatisfy { $0.hasPrefix("  ") })
        #expect(rows.joined(separator: " ").split(separator: " ") == ["one", "two", "three", "four"])
        #expect(TextPane.wrap(String(repeating: "x", count: 25), width: 10) == [String(repeating: "x", count: 10),
                                                                              String(repeating: "x", count: 10), "xxxxx"])
        #expect(TextPane.wrap("", width: 5) == [""])
    }

    @Test func textPaneScrollsWithinItsText() {
        var pane = TextPane(lines: (1...20).map { TextPane.Line("line \($0)") })
        var canvas = Canvas(rows: 5, columns: 20)
        pane.draw(into: &canvas, rect: Rect(row: 0, column: 0, rows: 5, columns: 20))
        do { let value = pane.handle(.pageDown); #expect(value) }
        #expect(pane.top == 5)
        do { let value = pane.handle(.end); #expect(value) }
        #expect(pane.top == 15)
        do { let value = pane.handle(.down); #expect(value) }
        #expect(pane.top == 15)
        do { let value = pane.handle(.home); #expect(value) }
        #expect(pane.top == 0)
        do { let value = pane.handle(.character("x")); #expect(!value) }
    }

    @Test func menuTypeAheadArrowsEnterAndEsc() {
        var menu = Menu(title: "group by", entries: ["author", "month", "title", "tag"])
        do { let value = menu.handle(.character("t")); #expect(value == .open) }
        #expect(menu.cursor == 2)
        do { let value = menu.handle(.character("a")); #expect(value == .open) }
        #expect(menu.cursor == 3)
        do { let value = menu.handle(.character("m")); #expect(value == .open) }
        #expect(menu.cursor == 1)
        do { let value = menu.handle(.down); #expect(value == .open) }
        #expect(menu.cursor == 2)
        do { let value = menu.handle(.enter); #expect(value == .chosen(2)) }
        do { let value = menu.handle(.escape); #expect(value == .closed) }
        var canvas = Canvas(rows: 10, columns: 30)
        menu.draw(into: &canvas)
        #expect(canvas.text.contains("group by"))
        #expect(canvas.text.contains(" author"))
    }

    @Test func helpOverlayListsTheKeyTable() {
        let table = KeyTable<Int>([([.enter, .character("l")], "open", 1), ([.character("q")], "quit", 2)])
        #expect(table.action(for: .character("l")) == 1)
        #expect(table.action(for: .character("x")) == nil)
        #expect(table.helpLines.map(\.keys) == ["Enter l", "q"])
        var canvas = Canvas(rows: 10, columns: 40)
        HelpOverlay.draw(into: &canvas, title: "keys", lines: table.helpLines)
        #expect(canvas.text.contains("Enter l  open"))
        #expect(canvas.text.contains("q        quit"))
    }

    @Test func statusLineCutsTheErrorAndKeepsTheHelpHint() {
        var status = StatusLine()
        status.server = "http://127.0.0.1:8106"
        status.online = false
        status.counts = "12 conditions"
        status.error = "cannot reach http://127.0.0.1:8106 (connection refused); is mockd running?"
        var canvas = Canvas(rows: 2, columns: 80)
        status.draw(into: &canvas, frame: 0)
        let line = canvas.line(1)
        #expect(line.hasPrefix(" http://127.0.0.1:8106 (offline) │ 12 conditions │ cannot"))
        #expect(line.hasSuffix("? help"))
        #expect(canvas[1, 55].style.color == .red)
        // Narrow, the counts give way to the error.
        var narrow = Canvas(rows: 1, columns: 60)
        status.draw(into: &narrow, frame: 0)
        #expect(narrow.line(0).hasPrefix(" http://127.0.0.1:8106 (offline) │ cannot reach"))
        #expect(narrow.line(0).hasSuffix("? help"))
    }

    @Test func motionsStayInBounds() {
        #expect(Motion.down.apply(to: 4, count: 5, page: 3) == 4)
        #expect(Motion.pageUp.apply(to: 1, count: 5, page: 3) == 0)
        #expect(Motion.last.apply(to: 0, count: 0, page: 3) == 0)
        #expect(Motion.halfPageDown.apply(to: 0, count: 100, page: 1) == 1)
    }

    @Test func buttonShowsItsFocus() {
        var canvas = Canvas(rows: 1, columns: 20)
        let rect = Button("Test").draw(into: &canvas, row: 0, column: 2, focused: true)
        #expect(canvas.line(0) == "  [ Test ]")
        #expect(rect == Rect(row: 0, column: 2, rows: 1, columns: 8))
        #expect(canvas[0, 2].style.reverse)
    }
}
