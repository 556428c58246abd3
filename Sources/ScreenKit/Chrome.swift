import CoreKit

/// What every screen has around its body, laid out once here: the title bar (the top row),
/// the body, the footer (the keys' hints from the screen's `KeyTable`, or a notice), the
/// status line (the bottom row), and the help overlay over them all. `resize` lays it out
/// before any frame (the runner calls the program's `resized` first), so `draw` only paints.
public struct Chrome: Sendable {
    public private(set) var rows = 24
    public private(set) var columns = 80
    public var status = StatusLine()
    /// Said in the footer's place until the next key.
    public var notice: String?
    /// The help overlay, while it is open.
    public private(set) var help: HelpOverlay?
    /// Turns the spinners: one step every tick (100 ms) while the screen is busy.
    public private(set) var tick = 0

    public init(server: String = "") { status.server = server }

    /// Where a screen draws its own content: between the title bar and the footer.
    public var body: Rect { Rect(row: 1, column: 0, rows: max(rows - 3, 0), columns: columns) }
    /// The body with a column of margin on each side (text that reads better off the edge).
    public var inset: Rect { Rect(row: body.row, column: 1, rows: body.rows, columns: max(columns - 2, 0)) }
    public var footerRow: Int { rows - 2 }

    public mutating func resize(rows: Int, columns: Int) {
        self.rows = max(rows, 0)
        self.columns = max(columns, 0)
        help?.layout(rows: self.rows, columns: self.columns)
    }

    public mutating func advance() { tick += 1 }

    public mutating func openHelp<Action>(title: String, table: KeyTable<Action>, disabled: (Action) -> String? = { _ in nil }) {
        var overlay = HelpOverlay(title: title, table: table, disabled: disabled)
        overlay.layout(rows: rows, columns: columns)
        help = overlay
    }

    /// Every key goes to the help overlay while it is open: it scrolls it or closes it. The
    /// notice of the key before is gone either way. True when the key was taken.
    public mutating func takes(_ key: KeyPress) -> Bool {
        notice = nil
        guard var overlay = help else { return false }
        help = overlay.handle(key) ? overlay : nil
        return true
    }

    /// The title bar, the footer and the status line, then the help overlay when it is open.
    /// `right` is set at the right end of the title bar, whole (tabs, the reader's position),
    /// the title cut before it; `hints` are the footer's (a notice replaces them); `helpHint`
    /// is how help opens from the focused widget (`? help`), nil where it cannot (a text field).
    public func draw(into canvas: inout Canvas, title: String, right: [(text: String, style: Style)] = [], hints: [String],
                     helpHint: String? = "? help") {
        canvas.fill(row: 0, style: .plain)
        let rightWidth = min(right.reduce(0) { $0 + TextWidth.of($1.text) }, columns)
        canvas.put(" " + title, row: 0, column: 0, width: max(columns - rightWidth - 1, 0), style: .heading)
        var column = columns - rightWidth
        for part in right { column = canvas.put(part.text, row: 0, column: column, style: part.style) }
        canvas.put(" " + footer(hints), row: footerRow, column: 0, width: columns, style: .dim)
        var status = self.status
        status.helpHint = helpHint
        status.draw(into: &canvas, frame: tick)
        help?.draw(into: &canvas)
    }

    /// What the footer says: the notice, else as many of `hints` as fit.
    public func footer(_ hints: [String]) -> String { notice ?? Self.fitted(hints, width: columns - 1) }

    /// The hints joined by ` · `, as many as fit in `width`, in the table's order.
    public static func fitted(_ hints: [String], width: Int) -> String {
        var text = ""
        for hint in hints {
            let next = text.isEmpty ? hint : text + " · " + hint
            guard TextWidth.of(next) <= width else { break }
            text = next
        }
        return text
    }
}
