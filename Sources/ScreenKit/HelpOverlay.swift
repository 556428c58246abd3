/// The `?` overlay: a screen's key table in a box, drawn over the screen; any key closes it.
public enum HelpOverlay {
    public static func draw(into canvas: inout Canvas, title: String, lines: [(keys: String, label: String)]) {
        let keyWidth = min(lines.map { $0.keys.count }.max() ?? 0, 24)
        let labelWidth = lines.map { $0.label.count }.max() ?? 0
        let width = min(max(keyWidth + labelWidth + 7, 18), canvas.columns)
        let height = min(lines.count + 3, canvas.rows)
        let box = Rect(row: max((canvas.rows - height) / 2, 0), column: max((canvas.columns - width) / 2, 0),
                       rows: height, columns: width)
        Frame.draw(into: &canvas, rect: box, title: title)
        for (offset, line) in lines.prefix(max(height - 3, 0)).enumerated() {
            let row = box.row + 1 + offset
            canvas.put(line.keys, row: row, column: box.column + 2, width: keyWidth, style: .bold)
            canvas.put(line.label, row: row, column: box.column + 4 + keyWidth, width: width - keyWidth - 5)
        }
        if height >= 3 {
            canvas.put("any key closes", row: box.row + box.rows - 2, column: box.column + 2, width: width - 4, style: .dim)
        }
    }
}
