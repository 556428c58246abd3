import CoreKit

/// The `?` overlay: a screen's key table in a box over the screen. It fits any terminal from
/// 20×6: a label too long for the box wraps under itself, and when the rows outnumber the
/// screen's the box scrolls (↑/↓, j/k, PgUp/PgDn, g/G) and says where it is; any other key
/// closes it.
public struct HelpOverlay: Sendable, Equatable {
    public let title: String
    public let lines: [Line]
    /// The rows shown: each line's keys and label, its label wrapped to the box.
    public private(set) var rows: [Line] = []
    public private(set) var top = 0
    /// Rows of keys the box shows, from the last `layout`.
    public private(set) var visible = 1
    private var keyWidth = 0
    private var width = 34

    public struct Line: Sendable, Equatable {
        public let keys: String
        public let label: String
    }

    /// `disabled`: why a binding does nothing in the screen's state now (nil: it acts).
    public init<Action>(title: String, table: KeyTable<Action>, disabled: (Action) -> String? = { _ in nil }) {
        self.title = title
        lines = table.helpLines(disabled: disabled).map { Line(keys: $0.keys, label: $0.label) }
    }

    /// Sizes the box for a terminal of `rows` × `columns` and wraps the labels for it.
    public mutating func layout(rows screenRows: Int, columns: Int) {
        keyWidth = min(lines.map { TextWidth.of($0.keys) }.max() ?? 0, 24)
        let labelWidth = lines.map { TextWidth.of($0.label) }.max() ?? 0
        width = min(max(keyWidth + labelWidth + 7, 34), columns)
        let labelRoom = max(width - keyWidth - 7, 8)
        rows = lines.flatMap { line in
            TextPane.wrap(line.label, width: labelRoom).enumerated().map { Line(keys: $0.offset == 0 ? line.keys : "", label: $0.element) }
        }
        visible = max(min(rows.count, screenRows - 4), 1)
        top = min(top, max(rows.count - visible, 0))
    }

    /// A scrolling key scrolls (true: the overlay stays); any other key closes it (false).
    public mutating func handle(_ key: KeyPress) -> Bool {
        guard let motion = Motion.of(key), rows.count > visible else { return false }
        top = motion.apply(to: top, count: rows.count - visible + 1, page: visible)
        return true
    }

    public func draw(into canvas: inout Canvas) {
        let height = min(visible + 3, canvas.rows)
        let box = Rect(row: max((canvas.rows - height) / 2, 0), column: max((canvas.columns - width) / 2, 0),
                       rows: height, columns: width)
        Frame.draw(into: &canvas, rect: box, title: title)
        for (offset, line) in rows[top..<min(top + visible, rows.count)].enumerated() where offset < height - 3 {
            let row = box.row + 1 + offset
            canvas.put(line.keys, row: row, column: box.column + 2, width: keyWidth, style: .bold)
            canvas.put(line.label, row: row, column: box.column + 4 + keyWidth, width: max(width - keyWidth - 6, 1))
        }
        guard height >= 3 else { return }
        let foot = rows.count > visible ? "\(top + 1)–\(min(top + visible, rows.count)) of \(rows.count) · j/k scroll · other keys close"
            : "any key closes"
        canvas.put(foot, row: box.row + box.rows - 2, column: box.column + 2, width: width - 4, style: .dim)
    }
}
