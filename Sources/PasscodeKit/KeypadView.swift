import ScreenKit
import ToolboxKit

/// The passcode screen: the instruction, four circles, the keypad as a phone grid (cancel
/// and delete beside the bottom digit), a status line and the keys' hint, drawn on a ScreenKit
/// canvas. From 21 rows the layout has room to breathe; from 16 it is packed, the bottom
/// keypad row always in view.
public struct KeypadView: Sendable {
    /// A button on the grid: a digit position (0–9, in the layout's order), cancel or delete.
    public enum Button: Sendable, Equatable {
        case digit(position: Int)
        case cancel
        case delete
    }

    /// Grid slots 0–11, row by row: positions 0–8, then cancel, position 9, delete.
    public static let slots: [Button] = (0..<9).map { .digit(position: $0) } + [.cancel, .digit(position: 9), .delete]

    public let width: Int
    public let height: Int
    static let buttonWidth = 9
    static let gap = 2
    static let title = "Please enter your 4 digit code"

    public init(width: Int, height: Int = 24) {
        self.width = max(width, 40)
        self.height = height
    }

    /// Rows of the title, the circles, the grid's top, the status and the hint (0-based).
    var isPacked: Bool { height < 21 }
    var titleRow: Int { isPacked ? 0 : 1 }
    var circlesRow: Int { isPacked ? 1 : 3 }
    var gridTop: Int { isPacked ? 2 : 5 }
    var statusRow: Int { isPacked ? 14 : 18 }
    var hintRow: Int { isPacked ? 15 : 20 }
    var gridLeft: Int { max(0, (width - (3 * Self.buttonWidth + 2 * Self.gap)) / 2) }

    /// What the status line says.
    public enum Status: Sendable, Equatable {
        case loading(frame: Int)
        case ready
        /// A call failed; `retrying`: another try comes by itself after a pause.
        case error(String, retrying: Bool)
        case unlocked
        case rejected
    }

    /// `hint`: the keys' hint (the screen's `KeyTable`'s, fitted to the width).
    public func draw(into canvas: inout Canvas, machine: PasscodeMachine, selected: Int, status: Status, hint: String) {
        centered(Self.title, row: titleRow, on: &canvas, style: .bold)
        let refused = if case .error(_, retrying: false) = status { true } else { false }
        let circles = (0..<PasscodeMachine.codeLength).map { $0 < machine.progress ? "●" : "○" }.joined(separator: "  ")
        centered(circles, row: circlesRow, on: &canvas)
        for slot in 0..<12 {
            let label: String
            switch Self.slots[slot] {
            case .digit(let position): label = String(machine.layout[position])
            case .cancel: label = "cancel"
            case .delete: label = "delete"
            }
            // Refused for good (credentials): nothing looks pressable, the selection neither.
            let style: Style = refused ? .dim : slot == selected ? .selected : (machine.acceptsInput ? .plain : .dim)
            let inner = Self.buttonWidth - 2
            let padLeft = (inner - label.count) / 2
            let text = String(repeating: " ", count: padLeft) + label + String(repeating: " ", count: inner - padLeft - label.count)
            let top = gridTop + (slot / 3) * 3
            let left = gridLeft + (slot % 3) * (Self.buttonWidth + Self.gap)
            canvas.put("┌" + String(repeating: "─", count: inner) + "┐", row: top, column: left, style: style)
            canvas.put("│" + text + "│", row: top + 1, column: left, style: style)
            canvas.put("└" + String(repeating: "─", count: inner) + "┘", row: top + 2, column: left, style: style)
        }
        let (text, style) = statusText(status)
        centered(text, row: statusRow, on: &canvas, style: style)
        centered(hint, row: hintRow, on: &canvas, style: .dim)
    }

    func statusText(_ status: Status) -> (String, Style) {
        switch status {
        case .loading(let frame): (Spinner.frame(frame) + " loading…", .plain)
        case .ready: ("", .plain)
        case .error(let message, let retrying): (Self.errorLine(message, retrying: retrying, width: width), Style(color: .red))
        case .unlocked: ("✓ unlocked", Style(bold: true, color: .green))
        case .rejected: ("✗ wrong code", Style(bold: true, color: .red))
        }
    }

    /// A failure's line, fitted to `width`: the reason stays whole; the URL in parentheses
    /// after it gives way first (cut in its middle, then left out), then the words on retrying.
    static func errorLine(_ message: String, retrying: Bool, width: Int) -> String {
        let long = retrying ? " (retrying; press a key to retry now)" : " (press a key to try again)"
        let short = retrying ? " (retrying)" : " (press a key)"
        let whole = "error: " + message + long
        guard TextWidth.of(whole) > width else { return whole }
        var reason = "error: " + message
        if message.hasSuffix(")"), let open = message.lastIndex(of: "("), open > message.startIndex,
           message[message.index(before: open)] == " ", message[open...].contains("://") {
            reason = "error: " + message[..<message.index(before: open)]
            let place = String(message[message.index(after: open)..<message.index(before: message.endIndex)])
            let room = width - TextWidth.of(reason + " ()" + long)
            if room >= 16 { return reason + " (" + TextWidth.elideMiddle(place, to: room) + ")" + long }
        }
        for line in [reason + long, reason + short] where TextWidth.of(line) <= width { return line }
        return TextWidth.truncate(reason + short, to: width)
    }

    /// The button under a 0-based screen cell, if any.
    public func button(row: Int, column: Int) -> Int? {
        let y = row - gridTop
        let x = column - gridLeft
        guard y >= 0, y < 12, x >= 0 else { return nil }
        let slotColumn = x / (Self.buttonWidth + Self.gap)
        guard slotColumn < 3, x % (Self.buttonWidth + Self.gap) < Self.buttonWidth else { return nil }
        return (y / 3) * 3 + slotColumn
    }

    /// The slot an arrow key moves the selection to.
    public static func move(_ slot: Int, _ key: KeyPress) -> Int {
        let row = slot / 3, column = slot % 3
        switch key {
        case .up: return max(0, row - 1) * 3 + column
        case .down: return min(3, row + 1) * 3 + column
        case .left: return row * 3 + max(0, column - 1)
        case .right: return row * 3 + min(2, column + 1)
        default: return slot
        }
    }

    private func centered(_ text: String, row: Int, on canvas: inout Canvas, style: Style = .plain) {
        let column = max(0, (width - TextWidth.of(text)) / 2)
        canvas.put(text, row: row, column: column, style: style)
    }
}
