import Testing
@testable import PasscodeKit
import ToolboxKit

@Suite struct KeyAndViewTests {
    @Test func keysFromRawBytes() {
        var decoder = KeyDecoder()
        #expect(decoder.decode(Array("12q".utf8)) == [.digit(1), .digit(2), .quit])
        #expect(decoder.decode([0x7F, 0x0D, 0x03, 0x04]) == [.backspace, .enter, .interrupt, .quit])
        #expect(decoder.decode(Array("\u{1B}[A\u{1B}[B\u{1B}OC\u{1B}[D".utf8)) == [.up, .down, .right, .left])
        #expect(decoder.decode([0x1B]) == [.escape])
        #expect(decoder.decode(Array("\u{1B}[<0;30;7M\u{1B}[<0;30;7m".utf8)) == [.click(row: 7, column: 30)])
    }

    @Test func aSequenceSplitAcrossReads() {
        var decoder = KeyDecoder()
        #expect(decoder.decode(Array("\u{1B}[<0;3".utf8)) == [])
        #expect(decoder.decode(Array("0;7M5".utf8)) == [.click(row: 7, column: 30), .digit(5)])
    }

    @Test func everyButtonIsHitWhereItIsDrawn() {
        let view = KeypadView(width: 80)
        var machine = PasscodeMachine()
        _ = machine.handle(.start)
        let lines = view.render(machine: machine, selected: -1, status: .loading(frame: 0), color: false)
        for slot in 0..<12 {
            let row = KeypadView.gridTop + (slot / 3) * 3 + 1  // the label line, 0-based
            let column = view.gridLeft + (slot % 3) * 11 + 4
            #expect(view.button(row: row + 1, column: column + 1) == slot)
            let character = Array(lines[row])[column]
            let label: Character
            switch KeypadView.slots[slot] {
            case .digit(let position): label = Character(String(machine.layout[position]))
            case .cancel: label = "c"
            case .delete: label = "l"
            }
            #expect(character == label || slot >= 9 && character != " ", "slot \(slot)")
        }
        #expect(view.button(row: 1, column: 1) == nil)
        #expect(view.button(row: KeypadView.gridTop + 2, column: view.gridLeft + 10) == nil)  // the gap
    }

    @Test func theScreenFitsEightyByTwentyFour() {
        var machine = PasscodeMachine()
        _ = machine.handle(.start)
        let lines = KeypadView(width: 80).render(machine: machine, selected: 10, status: .error(String(repeating: "x", count: 30)), color: false)
        #expect(lines.count <= 24)
        #expect(lines.allSatisfy { TextWidth.visible($0) <= 80 })
        #expect(lines[1].contains("Please enter your 4 digit code"))
        #expect(lines[3].contains("○  ○  ○  ○"))
    }

    @Test func onlyChangedLinesAreRedrawn() {
        var update = ScreenUpdate()
        let first = update.bytes(for: ["a", "b", "c"])
        #expect(first == "\u{1B}[?2026h\u{1B}[1;1Ha\u{1B}[K\u{1B}[2;1Hb\u{1B}[K\u{1B}[3;1Hc\u{1B}[K\u{1B}[?2026l")
        #expect(update.bytes(for: ["a", "B", "c"]) == "\u{1B}[?2026h\u{1B}[2;1HB\u{1B}[K\u{1B}[?2026l")
        #expect(update.bytes(for: ["a", "B", "c"]) == "")
    }

    @Test func arrowsMoveAroundTheGrid() {
        #expect(KeypadView.move(4, .up) == 1)
        #expect(KeypadView.move(1, .up) == 1)
        #expect(KeypadView.move(10, .down) == 10)
        #expect(KeypadView.move(9, .left) == 9)
        #expect(KeypadView.move(9, .right) == 10)
    }
}
