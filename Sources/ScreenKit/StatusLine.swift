import CoreKit

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

    /// Laid out by priority (issue 47), each part in columns of its own, so that none is
    /// drawn over another at any width: the help hint, then what is loading, then the error
    /// (its first 16 columns), then the server, then the counts, which give up whole items (` · `) from their end
    /// before any is cut. A space always parts the hint from what comes before it.
    public func draw(into canvas: inout Canvas, frame: Int) {
        let row = canvas.rows - 1
        guard row >= 0 else { return }
        canvas.fill(row: row, style: .reverse)
        let hint = helpHint.map { " " + $0 + " " } ?? ""
        let hintWidth = TextWidth.of(hint)
        let room = max(canvas.columns - hintWidth, 0)
        let loadingText = loading.map { "│ " + Spinner.frame(frame) + " " + $0 + " " } ?? ""
        let loadingWidth = min(TextWidth.of(loadingText), room)
        let serverText = " " + server + (online ? "" : " (offline)") + " "
        // The error keeps at least this much beside the server.
        let errorText = error.map { "│ " + $0 } ?? ""
        let errorMinimum = error == nil ? 0 : min(TextWidth.of(errorText), 16)
        let serverFull = TextWidth.of(serverText)
        let serverWidth = min(serverFull, max(room - loadingWidth - errorMinimum, min(serverFull, 12)), room)
        var column = canvas.put(TextWidth.truncate(serverText, to: serverWidth), row: row, column: 0, width: serverWidth, style: .reverse)
        // Beside an error, counts show only as whole items that leave it 30 columns.
        let countsRoom = room - column - loadingWidth - (error == nil ? 0 : min(TextWidth.of(errorText), 30))
        let countsText = Self.fitted(counts, width: countsRoom, cutting: error == nil)
        if !countsText.isEmpty {
            column = canvas.put(countsText, row: row, column: column, width: countsRoom, style: .reverse)
        }
        if !loadingText.isEmpty {
            column = canvas.put(TextWidth.truncate(loadingText, to: loadingWidth), row: row, column: column, width: loadingWidth, style: .reverse)
        }
        if error != nil, room - column > 3 {
            canvas.put(TextWidth.truncate(errorText, to: room - column), row: row, column: column, width: room - column,
                       style: Style(bold: true, reverse: true, color: .red))
        }
        if !hint.isEmpty, hintWidth <= canvas.columns {
            canvas.put(hint, row: row, column: canvas.columns - hintWidth, width: hintWidth, style: .reverse)
        }
    }

    /// `│ counts ` in `width` columns: whole ` · ` items from the start, as many as fit; the
    /// first alone is cut with `…` when `cutting`; empty when not even that fits a few columns.
    static func fitted(_ counts: String, width: Int, cutting: Bool = true) -> String {
        guard !counts.isEmpty, width >= 6 else { return "" }
        let items = counts.components(separatedBy: " · ")
        var text = ""
        for item in items {
            let next = text.isEmpty ? "│ " + item + " " : String(text.dropLast()) + " · " + item + " "
            guard TextWidth.of(next) <= width else { break }
            text = next
        }
        return text.isEmpty && cutting ? TextWidth.truncate("│ " + items[0] + " ", to: width) : text
    }
}

/// The loading spinner: a frame for each tick (the screen ticks every 100 ms while busy).
public enum Spinner {
    static let frames = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]

    public static func frame(_ tick: Int) -> String { frames[abs(tick) % frames.count] }
}
