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
        pane.layout(Rect(row: 0, column: 0, rows: 5, columns: 20))
        pane.draw(into: &canvas)
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

    /// Issue 48: every footer comes from a table: the bindings the state enables, each with
    /// the state's word for it where it has one, in the table's order.
    @Test func aFootersHintsFollowTheStateOfTheScreen() {
        let table = KeyTable<Int>([
            .init([.enter], "open", 1, hint: "open"),
            .init([.character("/")], "filter", 2, hint: "filter"),
            .init([.escape], "back", 3),
            .init([.up, .down], "move", 4, hint: "move", shownAs: "↑/↓"),
        ])
        #expect(table.hints == ["Enter open", "/ filter", "↑/↓ move"])
        #expect(table.hints(where: { $0 != 2 }) == ["Enter open", "↑/↓ move"])
        #expect(table.hints(where: { $0 >= 2 }, hint: { $0 == 3 ? "all posts" : $0 == 2 ? "filter again" : nil })
                == ["/ filter again", "Esc all posts", "↑/↓ move"])
        #expect(ListView.filterHints == ["Enter keeps it", "Esc clears it", "↑/↓ move"])
    }

    @Test func helpOverlayListsTheKeyTable() {
        let table = KeyTable<Int>([([.enter, .character("l")], "open", 1), ([.character("q")], "quit", 2)])
        #expect(table.action(for: .character("l")) == 1)
        #expect(table.action(for: .character("x")) == nil)
        #expect(table.helpLines().map(\.keys) == ["Enter l", "q"])
        var canvas = Canvas(rows: 10, columns: 40)
        var overlay = HelpOverlay(title: "keys", table: table)
        overlay.layout(rows: 10, columns: 40)
        overlay.draw(into: &canvas)
        #expect(canvas.text.contains("Enter l  open"))
        #expect(canvas.text.contains("q        quit"))
    }

    /// Issue 66: a binding's state is the binding's: disabled, its key does nothing and says
    /// why, and help marks it; enabled, it acts.
    @Test func aDisabledKeySaysWhyAndHelpMarksIt() {
        let table = KeyTable<Int>([([.enter], "open", 1), ([.character("R")], "pull", 2)])
        let busy = { (action: Int) in action == 2 ? "a sync is running" : nil }
        #expect(table.press(.character("R"), disabled: busy) == .disabled("R: a sync is running"))
        #expect(table.press(.enter, disabled: busy) == .action(1))
        #expect(table.press(.character("x"), disabled: busy) == .unbound)
        #expect(table.press(.character("R"), disabled: { _ in nil }) == .action(2))
        #expect(table.helpLines(disabled: busy).map(\.label) == ["open", "pull (not now: a sync is running)"])
    }

    @Test func statusLineCutsTheErrorAndKeepsTheHelpHint() {
        var status = StatusLine()
        status.server = "http://127.0.0.1:8106"
        status.online = false
        status.counts = "12 conditions"
        status.error = "connection refused (http://127.0.0.1:8106); is mockd running?"
        var canvas = Canvas(rows: 2, columns: 80)
        status.draw(into: &canvas, frame: 0)
        let line = canvas.line(1)
        // The error comes before the counts: they show only beside 30 columns of it.
        #expect(line.hasPrefix(" http://127.0.0.1:8106 (offline) │ connection refused (http://127.0.0.1…"))
        #expect(line.hasSuffix("? help"))
        #expect(canvas[1, 55].style.color == .red)
        var short = status
        short.error = "HTTP 500 (/conditions)"
        short.online = true
        short.draw(into: &canvas, frame: 0)
        #expect(canvas.line(1).hasPrefix(" http://127.0.0.1:8106 │ 12 conditions │ HTTP 500 (/conditions)"), "\(canvas.line(1))")
        // Narrow, the counts give way to the error.
        var narrow = Canvas(rows: 1, columns: 60)
        status.draw(into: &narrow, frame: 0)
        #expect(narrow.line(0).hasPrefix(" http://127.0.0.1:8106 (offline) │ connection refus… ? help"))
        #expect(narrow.line(0).hasSuffix("? help"))
    }

    /// Issue 47: at 60 columns nothing is drawn over anything: counts give up whole items
    /// before the hint or what is loading, and a space always parts the hint.
    @Test func statusLinePartsNeverOverlap() {
        var status = StatusLine()
        status.server = "http://127.0.0.1:18207"
        status.counts = "3 pending · 12 damaged · pulled 21:21"
        for columns in [40, 50, 60, 70, 80] {
            var canvas = Canvas(rows: 1, columns: columns)
            status.loading = nil
            status.draw(into: &canvas, frame: 0)
            let line = canvas.line(0)
            #expect(line.hasSuffix(" ? help"), "\(columns): \(line)")
            #expect(!line.contains("·?") && !line.contains("· ?") && !line.hasSuffix("· ? help"), "\(columns): \(line)")
            status.loading = "syncing 14/70"
            canvas = Canvas(rows: 1, columns: columns)
            status.draw(into: &canvas, frame: 0)
            let busy = canvas.line(0)
            #expect(busy.contains("│ ⠋ syncing 14/70"), "\(columns): \(busy)")
            #expect(!busy.contains("·│") && !busy.contains("1│"), "\(columns): \(busy)")
        }
        var canvas = Canvas(rows: 1, columns: 60)
        status.loading = nil
        status.draw(into: &canvas, frame: 0)
        #expect(canvas.line(0) == " http://127.0.0.1:18207 │ 3 pending · 12 damaged     ? help", "\(canvas.line(0))")
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

/// Lists whose items take two rows, and a pane that keeps its wrapping and finds text.
@Suite struct TallItemsAndFindTests {
    @Test func itemsOfTwoRowsScrollPageAndClickAsOne() {
        var list = ListView(sections: [ListView.Section(title: "A", items: (1...10).map { "title \($0)\nsummary \($0)" })],
                            linesPerItem: 2)
        var canvas = Canvas(rows: 5, columns: 20)
        list.layout(Rect(row: 0, column: 0, rows: 5, columns: 20))
        list.draw(into: &canvas)
        #expect(canvas.line(0) == "A")
        #expect(canvas.line(1) == " title 1")
        #expect(canvas.line(2) == " summary 1")
        #expect(canvas[2, 1].style == .selected, "both rows of the selected item are highlighted")
        list.move(.pageDown)
        #expect(list.selection == 2, "a page of 5 rows is 2 items")
        canvas = Canvas(rows: 5, columns: 20)
        list.layout(Rect(row: 0, column: 0, rows: 5, columns: 20))
        list.draw(into: &canvas)
        #expect(canvas.text.contains("summary 3"), "the whole selected item is in view")
        // A click on an item's second row selects it.
        let row = (0..<5).first { canvas.line($0) == " summary 2" }!
        let clicked = list.click(row: row)
        #expect(clicked)
        #expect(list.selection == 1)
        let selected = list.select(9)
        #expect(selected && list.selection == 9)
        #expect(list.shownItems == Array(0..<10))
    }

    @Test func aPaneFindsAndHighlightsKeepsItsPlaceAcrossWidths() {
        var pane = TextPane(lines: (1...50).map { TextPane.Line("line \($0) " + ($0 == 30 ? "Needle" : "hay")) })
        var canvas = Canvas(rows: 5, columns: 30)
        pane.layout(Rect(row: 0, column: 0, rows: 5, columns: 30))
        pane.draw(into: &canvas)
        let found = pane.find("needle")
        #expect(found)
        canvas = Canvas(rows: 5, columns: 30)
        pane.layout(Rect(row: 0, column: 0, rows: 5, columns: 30))
        pane.draw(into: &canvas)
        #expect(canvas.line(0) == "line 30 Needle")
        #expect(canvas[0, 8].style.reverse && canvas[0, 13].style.reverse && !canvas[0, 7].style.reverse)
        let absent = pane.find("absent")
        #expect(!absent)
        // Narrower: the line at the top stays at the top.
        canvas = Canvas(rows: 5, columns: 10)
        pane.layout(Rect(row: 0, column: 0, rows: 5, columns: 10))
        pane.draw(into: &canvas)
        #expect(canvas.line(0) == "line 30")
        let backwards = pane.find("needle", forward: false)
        #expect(backwards)
        let cleared = pane.find("")
        #expect(!cleared && pane.needle == nil)
    }
}
