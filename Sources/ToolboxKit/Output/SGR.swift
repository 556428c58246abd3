/// The one home of the escape sequences the line-mode output writes: styles (SGR, "select
/// graphic rendition") and the few cursor controls of the progress line and the passcode
/// keypad. Only for output that `Terminal.colorEnabled()` or a TTY check allowed; the screens
/// of `TOOL ui` draw through ncurses instead.
public enum SGR {
    public static let reset = "\u{1B}[0m"
    public static let bold = "\u{1B}[1m"
    public static let dim = "\u{1B}[2m"
    public static let underline = "\u{1B}[4m"
    public static let reverse = "\u{1B}[7m"
    public static let red = "\u{1B}[31m"
    public static let green = "\u{1B}[32m"

    /// One sequence setting every attribute in `parameters` ([0, 1] is reset, then bold).
    public static func select(_ parameters: [Int]) -> String {
        "\u{1B}[" + parameters.map(String.init).joined(separator: ";") + "m"
    }

    /// `text` in `style` when `enabled`, as it is otherwise.
    public static func styled(_ text: String, _ style: String, enabled: Bool = true) -> String {
        enabled ? style + text + reset : text
    }

    /// How a result is coloured wherever one is shown (`condtest explain`, `condtest test`):
    /// true green, false red, not evaluated dim.
    public static func result(_ text: String, _ value: Bool?) -> String {
        switch value {
        case true?: styled(text, green)
        case false?: styled(text, red)
        case nil: styled(text, dim)
        }
    }

    /// Erases from the cursor to the end of the line.
    public static let clearLine = "\u{1B}[K"
    /// Erases the whole screen.
    public static let clearScreen = "\u{1B}[2J"

    /// The passcode keypad's screen: the alternate screen, no cursor, mouse clicks reported
    /// (SGR mode 1006), cleared; and back again, with the styles reset and the cursor shown.
    public static let enterFullScreen = "\u{1B}[?1049h\u{1B}[?25l\u{1B}[?1000h\u{1B}[?1006h\u{1B}[2J"
    public static let leaveFullScreen = "\u{1B}[?1006l\u{1B}[?1000l\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l"

    /// `frame` drawn at once by terminals that know synchronized output (mode 2026), never half.
    public static func synchronizedUpdate(_ frame: String) -> String { "\u{1B}[?2026h" + frame + "\u{1B}[?2026l" }

    /// Moves the cursor to `row`, `column` (both from 1).
    public static func moveTo(row: Int, column: Int) -> String { "\u{1B}[\(row);\(column)H" }
}
