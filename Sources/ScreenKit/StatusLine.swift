import ToolboxKit

/// The bottom line of every screen: what it talks to and whether it can (left), counts and
/// what is loading (middle), the last error (right, in red; cut, never wrapped).
public struct StatusLine: Sendable, Equatable {
    public var server = ""
    public var online = true
    public var counts = ""
    public var loading: String?
    public var error: String?
    /// How help opens from where the focus is, at the right edge; nil where it cannot.
    public var helpHint: String? = "? help"

    public init() {}

    public func draw(into canvas: inout Canvas, frame: Int) {
        let row = canvas.rows - 1
        guard row >= 0 else { return }
        canvas.fill(row: row, style: .reverse)
        var column = canvas.put(" " + server + (online ? "" : " (offline)") + " ", row: row, column: 0, style: .reverse)
        // What is loading and the help hint always show; the counts take what is left.
        let hintWidth = helpHint.map { TextWidth.of($0) + 1 } ?? 0
        let loadingText = loading.map { "│ " + Spinner.frame(frame) + " " + $0 + " " }
        let room = canvas.columns - hintWidth - column - (loadingText.map(TextWidth.of) ?? 0)
        // An error is worth more than the counts when the line is short.
        let countsWidth = counts.isEmpty ? 0 : TextWidth.of(counts) + 3
        if !counts.isEmpty, error == nil || room - countsWidth >= 16 {
            column = canvas.put("│ " + counts + " ", row: row, column: column, width: max(room, 0), style: .reverse)
        }
        if let loadingText { column = canvas.put(loadingText, row: row, column: column, width: max(canvas.columns - hintWidth - column, 0), style: .reverse) }
        if let error {
            let room = canvas.columns - column - hintWidth - 1
            if room > 3 {
                canvas.put("│ " + error, row: row, column: column, width: room,
                           style: Style(bold: true, reverse: true, color: .red))
            }
        }
        if let helpHint {
            canvas.put(helpHint, row: row, column: max(canvas.columns - hintWidth, column), width: hintWidth, style: .reverse)
        }
    }
}

/// The loading spinner: a frame for each tick (the screen ticks every 100 ms while busy).
public enum Spinner {
    static let frames = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]

    public static func frame(_ tick: Int) -> String { frames[abs(tick) % frames.count] }
}
