import Testing
@testable import ScreenKit

@Suite struct TextFieldTests {
    func field(_ text: String) -> TextField { TextField(label: "arg1", text: text) }

    func typing(_ keys: [KeyPress], into start: String = "") -> TextField {
        var field = field(start)
        for key in keys { _ = field.handle(key) }
        return field
    }

    @Test func lettersAreText() {
        let field = typing("q/?r a".map { KeyPress.character($0) })
        #expect(field.text == "q/?r a")
        #expect(field.cursor == 6)
    }

    @Test func arrowsHomeEndMoveTheCursor() {
        #expect(typing([.left, .left, .character("X")], into: "abc").text == "aXbc")
        #expect(typing([.home, .character("X")], into: "abc").text == "Xabc")
        #expect(typing([.home, .end, .character("X")], into: "abc").text == "abcX")
        #expect(typing([.control("a"), .right, .character("X")], into: "abc").text == "aXbc")
        #expect(typing([.right, .right], into: "ab").cursor == 2)
        #expect(typing([.home, .left], into: "ab").cursor == 0)
    }

    @Test func backspaceAndDelete() {
        #expect(typing([.backspace], into: "abc").text == "ab")
        #expect(typing([.home, .backspace], into: "abc").text == "abc")
        #expect(typing([.home, .delete], into: "abc").text == "bc")
        #expect(typing([.delete], into: "abc").text == "abc")
    }

    @Test func controlUWAndK() {
        #expect(typing([.left, .control("u")], into: "abc").text == "c")
        #expect(typing([.control("w")], into: "one two  ").text == "one ")
        #expect(typing([.control("w"), .control("w")], into: "one two").text == "")
        #expect(typing([.home, .right, .control("k")], into: "abc").text == "a")
    }

    @Test func navigationKeysAreNotTheFields() {
        var field = field("x")
        for key in [KeyPress.tab, .backTab, .enter, .escape, .up, .down, .pageDown] { let handled = field.handle(key); #expect(!handled) }
        #expect(field.text == "x")
    }

    @Test func aLongTextScrollsSoTheCursorShows() {
        let field = field(String(repeating: "a", count: 30) + "END")
        var canvas = Canvas(rows: 1, columns: 20)
        let column = field.draw(into: &canvas, row: 0, column: 0, width: 20, focused: true)
        #expect(canvas.line(0).hasPrefix("arg1 "))
        #expect(canvas.line(0).hasSuffix("END"))
        #expect(column == 19)
        #expect(canvas[0, 19].style.reverse)
    }
}

/// Issue 37: the cursor never lands inside a character.
@Suite struct TextFieldGroupingTests {
    @Test func aCombiningMarkJoinsItsBase() {
        var field = TextField(label: "/")
        _ = field.handle(.character("e"))
        _ = field.handle(.character("\u{301}"))
        #expect(field.text == "e\u{301}" && field.cursor == 1)
        _ = field.handle(.left)
        #expect(field.cursor == 0)
        _ = field.handle(.right)
        _ = field.handle(.backspace)
        #expect(field.text.isEmpty && field.cursor == 0)
        // A base typed before a mark takes it; the cursor goes after both.
        field.text = "\u{301}x"
        _ = field.handle(.home)
        _ = field.handle(.character("a"))
        #expect(field.text == "a\u{301}x" && field.cursor == 1)
        _ = field.handle(.right)
        #expect(field.cursor == 2)
    }
}
