import ToolboxKit

/// The passcode screen drawn as text for an 80×24 terminal: the instruction, four circles,
/// the keypad as a phone grid (cancel and delete beside the bottom digit), and a status line.
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
    static let buttonWidth = 9
    static let gap = 2
    static let gridTop = 5
    static let title = "Please enter your 4 digit code"

    public init(width: Int) { self.width = max(width, 40) }

    var gridLeft: Int { max(0, (width - (3 * Self.buttonWidth + 2 * Self.gap)) / 2) }

    /// What the status line says.
    public enum Status: Sendable, Equatable {
        case loading(frame: Int)
        case ready
        case error(String)
        case unlocked
        case rejected
    }

    /// The screen's lines, each exactly as it should appear (with SGR codes when `color`).
    public func render(machine: PasscodeMachine, selected: Int, status: Status, color: Bool) -> [String] {
        var lines = Array(repeating: "", count: 21)
        lines[1] = centered(Self.title)
        let circles = (0..<PasscodeMachine.codeLength).map { $0 < machine.progress ? "●" : "○" }.joined(separator: "  ")
        lines[3] = centered(circles)
        let enabled = machine.acceptsInput
        for row in 0..<4 {
            var top = String(repeating: " ", count: gridLeft)
            var middle = top
            var bottom = top
            for column in 0..<3 {
                let slot = row * 3 + column
                let label: String
                switch Self.slots[slot] {
                case .digit(let position): label = String(machine.layout[position])
                case .cancel: label = "cancel"
                case .delete: label = "delete"
                }
                let inner = Self.buttonWidth - 2
                let padLeft = (inner - label.count) / 2
                let text = String(repeating: " ", count: padLeft) + label + String(repeating: " ", count: inner - padLeft - label.count)
                var (t, m, b) = ("┌" + String(repeating: "─", count: inner) + "┐", "│" + text + "│",
                                 "└" + String(repeating: "─", count: inner) + "┘")
                if color {
                    let style = slot == selected ? SGR.reverse : (enabled ? "" : SGR.dim)
                    if !style.isEmpty { (t, m, b) = (SGR.styled(t, style), SGR.styled(m, style), SGR.styled(b, style)) }
                } else if slot == selected {
                    m = ">" + m.dropFirst().dropLast() + "<"
                }
                let spacer = column < 2 ? String(repeating: " ", count: Self.gap) : ""
                top += t + spacer
                middle += m + spacer
                bottom += b + spacer
            }
            lines[Self.gridTop + row * 3] = top
            lines[Self.gridTop + row * 3 + 1] = middle
            lines[Self.gridTop + row * 3 + 2] = bottom
        }
        lines[18] = centered(statusText(status, color: color))
        lines[20] = centered("digits, arrows + Enter or mouse · Backspace delete · Esc cancel · q quit")
        return lines
    }

    func statusText(_ status: Status, color: Bool) -> String {
        let frames = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]
        switch status {
        case .loading(let frame): return frames[frame % frames.count] + " loading…"
        case .ready: return ""
        case .error(let message):
            let text = "error: " + message + " (retrying; press a key to retry now)"
            return SGR.styled(text, SGR.red, enabled: color)
        case .unlocked: return SGR.styled("✓ unlocked", SGR.green, enabled: color)
        case .rejected: return SGR.styled("✗ wrong code", SGR.red, enabled: color)
        }
    }

    /// The button under a 1-based screen position, if any.
    public func button(row: Int, column: Int) -> Int? {
        let y = row - 1 - Self.gridTop
        let x = column - 1 - gridLeft
        guard y >= 0, y < 12, x >= 0 else { return nil }
        let slotColumn = x / (Self.buttonWidth + Self.gap)
        guard slotColumn < 3, x % (Self.buttonWidth + Self.gap) < Self.buttonWidth else { return nil }
        return (y / 3) * 3 + slotColumn
    }

    /// The slot an arrow key moves the selection to.
    public static func move(_ slot: Int, _ key: Key) -> Int {
        let row = slot / 3, column = slot % 3
        switch key {
        case .up: return max(0, row - 1) * 3 + column
        case .down: return min(3, row + 1) * 3 + column
        case .left: return row * 3 + max(0, column - 1)
        case .right: return row * 3 + min(2, column + 1)
        default: return slot
        }
    }

    private func centered(_ text: String) -> String {
        let visible = TextWidth.visible(text)
        let pad = max(0, (width - visible) / 2)
        return String(repeating: " ", count: pad) + text
    }
}
