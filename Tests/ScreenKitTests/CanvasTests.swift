import Testing
import CoreKit
@testable import ScreenKit

@Suite struct CanvasTests {
    @Test func textIsClippedAtTheEdgeAndAtAWidth() {
        var canvas = Canvas(rows: 2, columns: 8)
        #expect(canvas.put("conditions", row: 0, column: 2) == 8)
        #expect(canvas.line(0) == "  condit")
        canvas.put("abcdef", row: 1, column: 0, width: 3)
        #expect(canvas.line(1) == "abc")
    }

    @Test func wideCharactersTakeTwoCellsAndNeverHalfOne() {
        var canvas = Canvas(rows: 1, columns: 5)
        #expect(canvas.put("日本語", row: 0, column: 0) == 4)
        #expect(canvas.line(0) == "日本")
        #expect(canvas[0, 1].character == nil)
        #expect(canvas.runs(of: 0).map(\.text) == ["日本 "])
    }

    @Test func combiningMarksJoinTheirCharacter() {
        var canvas = Canvas(rows: 1, columns: 4)
        canvas.put("e\u{301}x", row: 0, column: 0)
        #expect(canvas[0, 0].character == "e\u{301}")
        #expect(canvas.line(0) == "e\u{301}x")
    }

    @Test func controlsAreDroppedAndBidiControlsShown() {
        var canvas = Canvas(rows: 1, columns: 40)
        canvas.put("a\u{1B}[2Jb\u{9B}c\u{202E}d\te\nf", row: 0, column: 0)
        #expect(canvas.line(0) == "a[2Jbc<U+202E>d e f")
    }

    @Test func highlightAddsAttributesAndKeepsColours() {
        var canvas = Canvas(rows: 1, columns: 6)
        canvas.put("ok", row: 0, column: 0, style: Style(color: .green))
        canvas.highlight(row: 0, style: .selected)
        #expect(canvas[0, 0].style == Style(reverse: true, color: .green))
        #expect(canvas[0, 5].style == .selected)
    }

    @Test func outsideTheCanvasNothingHappens() {
        var canvas = Canvas(rows: 1, columns: 3)
        canvas.put("x", row: 5, column: 0)
        canvas.put("x", row: -1, column: 0)
        canvas.put("xyz", row: 0, column: -1)
        #expect(canvas.line(0) == "yz")
    }

    @Test func traceMilliseconds() {
        #expect(UITrace.milliseconds(.milliseconds(1234) + .microseconds(567), digits: 3) == "1234.567")
        #expect(UITrace.milliseconds(.microseconds(50), digits: 1) == "0.0")
        #expect(UITrace.milliseconds(.microseconds(2050), digits: 3) == "2.050")
    }

    @Test func keysFromCharacters() {
        #expect(KeyPress.fromCharacter(0x0D) == .enter)
        #expect(KeyPress.fromCharacter(0x15) == .control("u"))
        #expect(KeyPress.fromCharacter(0x17) == .control("w"))
        #expect(KeyPress.fromCharacter(0x7F) == .backspace)
        #expect(KeyPress.fromCharacter(0x1B) == .escape)
        #expect(KeyPress.fromCharacter(0x6A) == .character("j"))
        #expect(KeyPress.fromCharacter(0x65E5) == .character("日"))
        #expect(KeyPress.fromCharacter(0x1C) == nil)
        #expect(KeyPress.control("u").name == "Ctrl-U")
        #expect(KeyPress.character(" ").name == "Space")
    }
}

/// Issue 37: what the outside fuzzing found in the canvas, each a regression test.
@Suite struct CanvasPairingTests {
    @Test func writingOverHalfAWideCharacterTakesAllOfIt() {
        var canvas = Canvas(rows: 1, columns: 6)
        canvas.put("日本", row: 0, column: 0)
        canvas.put("x", row: 0, column: 1)   // over the second half of 日
        #expect(canvas.line(0) == " x本")
        canvas.put("y", row: 0, column: 2)   // over the first half of 本
        #expect(canvas.line(0) == " xy")
        for column in 0..<6 { #expect(canvas[0, column].character != nil, "\(column)") }
        canvas.put("日", row: 0, column: 4)
        canvas.fill(row: 0, column: 5, width: 1, style: .plain)
        #expect(canvas[0, 4].character == " " && canvas[0, 5].character == " ")
    }

    @Test func aClusterIsOneCharacterOfAtMostTwoColumns() {
        var canvas = Canvas(rows: 1, columns: 8)
        canvas.put("👨‍👩‍👧ab🇫🇷1️⃣", row: 0, column: 0)
        #expect(canvas.line(0) == "👨‍👩‍👧ab🇫🇷1️⃣")
        // As tmux draws them (issue 46): the keycap is as wide as its digit.
        #expect(TextWidth.of(canvas.line(0)) == 7)
        #expect(TextWidth.of("👨‍👩‍👧") == 2 && TextWidth.of("🇫🇷") == 2 && TextWidth.of("1️⃣") == 1 && TextWidth.of("e\u{301}") == 1)
        var edge = Canvas(rows: 1, columns: 3)
        edge.put("ab日", row: 0, column: 0)
        #expect(edge.line(0) == "ab" && TextWidth.of(edge.line(0)) <= 3)
    }
}
