/// The one home of the escape sequences the line-mode output writes: styles (SGR, "select
/// graphic rendition") and the cursor control of the progress line. Only for output that
/// `Terminal.colorEnabled()` or a TTY check allowed; every screen (`TOOL ui`, passcode's
/// keypad) draws through ncurses in ScreenKit instead.
public enum SGR {
    public static let reset = "\u{1B}[0m"
    public static let bold = "\u{1B}[1m"
    public static let dim = "\u{1B}[2m"
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
}
