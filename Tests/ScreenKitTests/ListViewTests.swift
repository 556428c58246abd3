import Testing
import CoreKit
@testable import ScreenKit

@Suite struct ListViewTests {
    let names = (1...30).map { "condition \($0)" }

    func drawn(_ list: inout ListView, rows: Int = 10) -> Canvas {
        var canvas = Canvas(rows: rows, columns: 30)
        list.layout(Rect(row: 0, column: 0, rows: rows, columns: 30))
        list.draw(into: &canvas)
        return canvas
    }

    @Test func everyMotionKey() {
        var list = ListView(items: names)
        _ = drawn(&list)
        for (key, expected) in [(KeyPress.down, 1), (.character("j"), 2), (.up, 1), (.character("k"), 0), (.up, 0),
                                (.pageDown, 10), (.character(" "), 20), (.pageUp, 10), (.control("d"), 15), (.control("u"), 10),
                                (.end, 29), (.down, 29), (.home, 0), (.character("G"), 29), (.character("g"), 0),
                                (.wheelDown, 1), (.wheelUp, 0)] {
            do { let value = list.handle(key); #expect(value) }
            #expect(list.selection == expected, "after \(key.name)")
        }
        do { let value = list.handle(.character("x")); #expect(!value) }
    }

    @Test func theCursorStaysInView() {
        var list = ListView(items: names)
        for _ in 0..<15 { _ = list.handle(.down) }
        let canvas = drawn(&list)
        #expect(canvas.line(9) == " condition 16")
        #expect(canvas[9, 0].style.reverse)
    }

    @Test func filterAsYouType() {
        var list = ListView(items: names + ["Domain is rollout.io"])
        do { let value = list.handle(.character("/")); #expect(value) }
        #expect(list.isFiltering)
        for character in "ROLL" { _ = list.handle(.character(character)) }
        #expect(list.shownCount == 1)
        #expect(list.selection == 30)
        var canvas = drawn(&list)
        #expect(canvas.line(0) == " Domain is rollout.io")
        #expect(canvas.line(9).hasPrefix("/ ROLL"))
        _ = list.handle(.enter)
        #expect(!list.isFiltering && list.filter.text == "ROLL" && list.shownCount == 1)
        _ = list.handle(.character("/"))
        _ = list.handle(.escape)
        #expect(list.shownCount == 31 && list.selection == 30)
        _ = list.handle(.character("/"))
        _ = list.handle(.character("#"))
        canvas = drawn(&list)
        #expect(list.selection == nil)
        #expect(canvas.line(0) == " (nothing matches)")
    }

    /// Issue 48: one item replaced is that item changed, in its section; the cursor stays,
    /// and under a filter the item comes or goes as its new text matches.
    @Test func replacingOneItem() {
        var list = ListView(sections: [ListView.Section(title: "A", items: ["one", "two"]), ListView.Section(title: "B", items: ["three"])])
        _ = list.handle(.down)
        list.replaceItem(2, with: "drei")
        #expect(list.sections[1].items == ["drei"] && list.sections[0].items == ["one", "two"])
        #expect(list.selection == 1)
        var canvas = drawn(&list)
        #expect(canvas.line(3) == "   drei" || canvas.line(4).contains("drei"), "\(canvas.line(3)) | \(canvas.line(4))")
        _ = list.handle(.character("/"))
        for character in "dr" { _ = list.handle(.character(character)) }
        _ = list.handle(.enter)
        #expect(list.shownCount == 1 && list.selection == 2)
        list.replaceItem(0, with: "dry")
        #expect(list.shownCount == 2)
        list.replaceItem(2, with: "three")
        #expect(list.shownCount == 1 && list.selection == 0)
        list.replaceItem(7, with: "out of range")
        #expect(list.shownCount == 1)
        canvas = drawn(&list)
        #expect(!canvas.line(0).contains("three"))
    }

    /// Issue 47: the filter's words match in any order, not as one substring.
    @Test func everyWordOfTheFilterMatchesAnywhere() {
        var list = ListView(items: ["Generated 49 rollout", "Generated 50", "rollout 49"])
        _ = list.handle(.character("/"))
        for character in "Gen 49" { _ = list.handle(.character(character)) }
        #expect(list.shownItems == [0])
        for _ in 0..<6 { _ = list.handle(.backspace) }
        for character in "49 roll" { _ = list.handle(.character(character)) }
        #expect(list.shownItems == [0, 2])
    }

    /// Issue 39: a key that lengthens the filter searches only what the filter matched before;
    /// seeded random typing and Backspace over sectioned items always shows exactly the items
    /// a plain search finds, in order.
    @Test func narrowingFindsWhatASearchOfEveryItemFinds() {
        var random = SeededGenerator(seed: 39)
        let words = ["ab", "ba", "abc", "ÅB", "b", "cab", "x"]
        let sections = (0..<6).map { section in
            ListView.Section(title: "S\(section)", items: (0..<40).map { _ in
                (0..<3).map { _ in words[Int(random.next() % UInt64(words.count))] }.joined(separator: " ")
            })
        }
        var list = ListView(sections: sections)
        let all = sections.flatMap(\.items)
        _ = list.handle(.character("/"))
        for _ in 0..<200 {
            if random.next() % 3 == 0 { _ = list.handle(.backspace) } else {
                _ = list.handle(.character(Array("abcå ")[Int(random.next() % 5)]))
            }
            let needle = list.filter.text.lowercased().split(separator: " ")
            let expected = all.indices.filter { item in needle.allSatisfy { all[item].lowercased().contains($0) } }
            #expect(list.shownItems == expected, "filter \(Terminal.quote(list.filter.text))")
        }
    }

    @Test func headersAreShownAndSkipped() {
        var list = ListView(sections: [.init(title: "Ann", items: ["a1", "a2"]), .init(title: "Bob", items: ["b1"])])
        let canvas = drawn(&list)
        #expect((0..<5).map(canvas.line) == ["Ann", " a1", " a2", "Bob", " b1"])
        _ = list.handle(.down)
        _ = list.handle(.down)
        #expect(list.selection == 2)
        _ = list.handle(.character("/"))
        _ = list.handle(.character("b"))
        let filtered = drawn(&list)
        #expect((0..<2).map(filtered.line) == ["Bob", " b1"])
    }

    @Test func aClickSelectsTheRowUnderIt() {
        var list = ListView(sections: [.init(title: "Ann", items: ["a1", "a2"])])
        _ = drawn(&list)
        do { let value = list.click(row: 2); #expect(value) }
        #expect(list.selection == 1)
        do { let value = list.click(row: 0); #expect(!value) }
        do { let value = list.click(row: 7); #expect(!value) }
    }

    @Test func newItemsKeepTheSelection() {
        var list = ListView(items: ["a", "b", "c"])
        _ = list.handle(.end)
        list.setSections([.init(items: ["a", "b"])])
        #expect(list.selection == 1)
    }
}
