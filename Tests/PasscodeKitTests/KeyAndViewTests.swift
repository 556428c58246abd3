import ScreenKit
import Testing
@testable import PasscodeKit
import ToolboxKit

@Suite struct KeyAndViewTests {
    func drawn(_ machine: PasscodeMachine, rows: Int = 24, columns: Int = 80, selected: Int = -1,
               status: KeypadView.Status = .ready) -> Canvas {
        var canvas = Canvas(rows: rows, columns: columns)
        KeypadView(width: columns, height: rows).draw(into: &canvas, machine: machine, selected: selected, status: status,
                                                         hint: Chrome.fitted(PasscodeScreen.keys.hints, width: columns))
        return canvas
    }

    func started() -> PasscodeMachine {
        var machine = PasscodeMachine()
        _ = machine.handle(.start)
        return machine
    }

    @Test func everyButtonIsHitWhereItIsDrawn() {
        for rows in [16, 24, 40] {
            let view = KeypadView(width: 80, height: rows)
            let machine = started()
            let canvas = drawn(machine, rows: rows)
            for slot in 0..<12 {
                let row = view.gridTop + (slot / 3) * 3 + 1  // the label line
                let column = view.gridLeft + (slot % 3) * 11 + 4
                #expect(view.button(row: row, column: column) == slot)
                let character = canvas[row, column].character
                switch KeypadView.slots[slot] {
                case .digit(let position): #expect(character == Character(String(machine.layout[position])), "slot \(slot)")
                case .cancel, .delete: #expect(character != " " && character != nil, "slot \(slot)")
                }
            }
            #expect(canvas.line(view.gridTop + 10).contains("cancel") && canvas.line(view.gridTop + 10).contains("delete"))
            #expect(view.button(row: 0, column: 0) == nil)
            #expect(view.button(row: view.gridTop + 2, column: view.gridLeft + 10) == nil)  // the gap
        }
    }

    @Test func theScreenFitsEightyByTwentyFour() {
        let canvas = drawn(started(), selected: 10, status: .error(String(repeating: "x", count: 30), retrying: true))
        #expect(canvas.line(1).contains("Please enter your 4 digit code"))
        #expect(canvas.line(3).contains("○  ○  ○  ○"))
        #expect(canvas.line(18).contains("error: xxx"))
        #expect(canvas.line(20).contains("Esc cancel"))
    }

    /// Issue 25: at 16 rows the bottom keypad row stays visible, and the hint below it.
    @Test func atSixteenRowsEveryRowIsVisible() {
        let canvas = drawn(started(), rows: 16, columns: 60, status: .unlocked)
        let lines = (0..<16).map(canvas.line)
        #expect(lines[0].contains("Please enter your 4 digit code"))
        #expect(lines[12].contains("cancel") && lines[12].contains("delete"))
        #expect(lines[13].contains("└"))
        #expect(lines[14].contains("✓ unlocked"))
        #expect(lines[15].contains("Esc cancel · q quit"), "the whole hint fits 60 columns")
    }

    @Test func theSelectionIsReversedAndTheKeypadDimWhileLoading() {
        let loading = drawn(PasscodeMachine(), selected: 4)
        let view = KeypadView(width: 80)
        #expect(loading[view.gridTop + 4, view.gridLeft + 11 + 4].style.reverse)
        #expect(loading[view.gridTop + 1, view.gridLeft + 4].style.dim)
        var machine = started()
        _ = machine.handle(.codeArrived(call: 1, code: "1234"))
        _ = machine.handle(.setupArrived(call: 1, setup: Array(0...9)))
        let ready = drawn(machine, selected: 4)
        #expect(!ready[view.gridTop + 1, view.gridLeft + 4].style.dim)
    }

    @Test func arrowsMoveAroundTheGrid() {
        #expect(KeypadView.move(4, .up) == 1)
        #expect(KeypadView.move(1, .up) == 1)
        #expect(KeypadView.move(10, .down) == 10)
        #expect(KeypadView.move(9, .left) == 9)
        #expect(KeypadView.move(9, .right) == 10)
    }

    /// A refused call's line keeps its reason and what to do whole at 60 and 80 columns; the
    /// URL gives way (cut in its middle, then left out), and nothing passes the width.
    @Test func aRefusedCallSaysItsReasonFirstAndTheURLGivesWay() {
        let message = "credentials refused (http://127.0.0.1:47811/getPasscodeInternals)"
        let wide = KeypadView.errorLine(message, retrying: false, width: 120)
        #expect(wide == "error: " + message + " (press a key to try again)")
        for width in [40, 60, 80] {
            for retrying in [false, true] {
                let line = KeypadView.errorLine(message, retrying: retrying, width: width)
                #expect(TextWidth.of(line) <= width, "\(width): \(line)")
                #expect(line.hasPrefix("error: credentials refused"), "\(width): \(line)")
                #expect(line.contains(retrying ? "(retrying" : "(press a key"), "\(width): \(line)")
            }
        }
        let eighty = KeypadView.errorLine(message, retrying: false, width: 80)
        #expect(eighty.contains("(http://127.0") && eighty.contains("…"), "\(eighty)")
        #expect(!KeypadView.errorLine(message, retrying: false, width: 60).contains("http"))
        // A message without a URL is cut at its end only when nothing else fits.
        let plain = KeypadView.errorLine(String(repeating: "x", count: 100), retrying: false, width: 60)
        #expect(TextWidth.of(plain) == 60 && plain.hasSuffix("…"))
    }
}
