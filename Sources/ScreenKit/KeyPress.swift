/// A key or mouse event, as ScreenKit hands it to a screen: decoded by ncurses from the
/// terminal's own sequences (terminfo), so every terminal's arrows and Home/End are the same.
public enum KeyPress: Sendable, Hashable {
    /// A printable character (a letter, a digit, a space, a wide character).
    case character(Character)
    /// Ctrl and a letter (`ctrl("u")`); Ctrl-C never reaches a screen, it ends the program.
    case control(Character)
    case enter, tab, backTab, escape, backspace, delete
    case up, down, left, right, home, end, pageUp, pageDown
    case function(Int)
    /// A left click at a 0-based cell.
    case click(row: Int, column: Int)
    case wheelUp, wheelDown

    /// The name a trace line and the help overlay give it: `j`, `Enter`, `Ctrl-U`, `PgDn`.
    public var name: String {
        switch self {
        case .character(" "): "Space"
        case .character(let character): String(character)
        case .control(let letter): "Ctrl-" + letter.uppercased()
        case .enter: "Enter"
        case .tab: "Tab"
        case .backTab: "Shift-Tab"
        case .escape: "Esc"
        case .backspace: "Backspace"
        case .delete: "Delete"
        case .up: "Up"
        case .down: "Down"
        case .left: "Left"
        case .right: "Right"
        case .home: "Home"
        case .end: "End"
        case .pageUp: "PgUp"
        case .pageDown: "PgDn"
        case .function(let number): "F\(number)"
        case .click: "click"
        case .wheelUp: "wheel-up"
        case .wheelDown: "wheel-down"
        }
    }

    /// Decodes one character that ncurses returned as text (not a function key).
    static func fromCharacter(_ value: UInt32) -> KeyPress? {
        switch value {
        case 0x0D, 0x0A: return .enter
        case 0x09: return .tab
        case 0x1B: return .escape
        case 0x7F, 0x08: return .backspace
        case 0x01...0x1A: return .control(Character(Unicode.Scalar(value + 0x60)!))
        case 0x00..<0x20: return nil
        default:
            guard let scalar = Unicode.Scalar(value) else { return nil }
            return .character(Character(scalar))
        }
    }
}
