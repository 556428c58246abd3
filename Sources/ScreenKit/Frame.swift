/// A box drawn with line characters, its inside cleared: pop-ups and the help overlay.
public enum Frame {
    public static func draw(into canvas: inout Canvas, rect: Rect, title: String) {
        guard rect.rows >= 2, rect.columns >= 2 else { return }
        let inner = rect.columns - 2
        canvas.put("┌" + String(repeating: "─", count: inner) + "┐", row: rect.row, column: rect.column)
        for row in (rect.row + 1)..<(rect.row + rect.rows - 1) {
            canvas.put("│", row: row, column: rect.column)
            canvas.fill(row: row, column: rect.column + 1, width: inner, style: .plain)
            canvas.put("│", row: row, column: rect.column + rect.columns - 1)
        }
        canvas.put("└" + String(repeating: "─", count: inner) + "┘", row: rect.row + rect.rows - 1, column: rect.column)
        if !title.isEmpty { canvas.put(" " + title + " ", row: rect.row, column: rect.column + 2, width: inner - 2, style: .heading) }
    }
}
