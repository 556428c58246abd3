import ToolboxKit

/// The `?` overlay: a screen's key table in a box over the screen. It fits any terminal from
/// 20×6: when the keys outnumber the rows it scrolls (↑/↓, j/k, PgUp/PgDn, g/G) and says
/// where it is; any other key closes it.
public struct HelpOverlay: Sendable, Equatable {
    public let title: String
    public let lines: [Line]
    public private(set) var top = 0
    /// Rows of keys the box shows, from the last `layout`.
    public private(set) var visible = 1

    public struct Line: Sendable, Equatable {
        public let keys: String
        public let label: String
    }

    public init<Action>(title: String, table: KeyTable<Action>) {
        self.title = title
        lines = table.helpLines.map { Line(keys: $0.keys, label: $0.label) }
    }

    /// Sizes the box for a terminal of `rows`.
    public mutating func layout(rows: Int) {
        visible = max(min(lines.count, rows - 4), 1)
        top = min(top, max(lines.count - visible, 0))
    }

    /// A scrolling key scrolls (true: the overlay stays); any other key closes it (false).
    public mutating func handle(_ key: KeyPress) -> Bool {
        guard let motion = Motion.of(key), lines.count > visible else { return false }
        top = motion.apply(to: top, count: lines.count - visible + 1, page: visible)
        return true
    }

    public func draw(into canvas: inout Canvas) {
        let keyWidth = min(lines.map { TextWidth.of($0.keys) }.max() ?? 0, 24)
        let labelWidth = lines.map { TextWidth.of($0.label) }.max() ?? 0
        let width = min(max(keyWidth + labelWidth + 7, 34), canvas.columns)
        let height = min(visible + 3, canvas.rows)
        let box = Rect(row: max((canvas.rows - height) / 2, 0), column: max((canvas.columns - width) / 2, 0),
                       rows: height, columns: width)
        Frame.draw(into: &canvas, rect: box, title: title)
        let labelRoom = max(width - keyWidth - 7, 1)
        for (offset, line) in lines[top..<min(top + visible, lines.count)].enumerated() where offset < height - 3 {
            let row = box.row + 1 + offset
            canvas.put(line.keys, row: row, column: box.column + 2, width: keyWidth, style: .bold)
            canvas.put(line.label, row: row, column: box.column + 4 + keyWidth, width: labelRoom)
        }
        guard height >= 3 else { return }
        let scrolls = lines.count > visible
        let foot = scrolls ? "\(top + 1)–\(min(top + visible, lines.count)) of \(lines.count) · j/k scroll · other keys close"
            : "any key closes"
        canvas.put(foot, row: box.row + box.rows - 2, column: box.column + 2, width: width - 4, style: .dim)
    }
}
