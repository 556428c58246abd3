import CoreKit

/// The tables open, innermost last. Text and style go to the innermost one's open cell; a
/// table nested in a cell is flattened into that cell when it ends; the outermost is handed
/// back to be laid out when it ends, or in parts of complete rows once it holds
/// `TableLayout.drainSize` (a nested table that large takes no more cells).
struct OpenTables {
    private var stack: [TableLayout] = []
    /// The work of the cells' text (part of the renderer's `work`).
    private(set) var cellWork = 0

    var isEmpty: Bool { stack.isEmpty }

    mutating func open() {
        var table = TableLayout()
        table.nested = !stack.isEmpty
        stack.append(table)
    }

    /// The innermost table's parts, as their tags start and end.
    mutating func startRow() { stack[stack.count - 1].startRow() }

    mutating func startCell(header: Bool, escapesMarkdown: Bool) {
        stack[stack.count - 1].startCell(header: header, escapesMarkdown: escapesMarkdown)
    }

    mutating func endCell() { stack[stack.count - 1].endCell() }

    mutating func setInHead(_ inHead: Bool) { stack[stack.count - 1].inHead = inHead }

    /// The innermost table ends: the outermost is handed back, a nested one goes into its
    /// parent's cell as text (nil).
    mutating func close() -> TableLayout? {
        var table = stack.removeLast()
        table.endCell()
        if stack.isEmpty { return table }
        let text = table.flattened
        withCell { $0.append(collapsingEscaped: text) }
        return nil
    }

    /// Text as the markup gives it, into the open cell.
    mutating func append(_ text: UnsafeBufferPointer<UInt8>) {
        stack[stack.count - 1].withCell { $0.append(collapsing: text) }
    }

    /// The open cell, for what the renderer puts there (words, spaces), its work counted.
    mutating func withCell(_ body: (inout InlineText) -> Void) {
        var work = 0
        stack[stack.count - 1].withCell { cell in
            let before = cell.work
            body(&cell)
            work = cell.work - before
        }
        cellWork += work
    }

    mutating func setStyle(_ style: TextStyle) {
        stack[stack.count - 1].withCell { $0.style = style }
    }

    /// Once the innermost table holds `TableLayout.drainSize` and is the outermost, its
    /// complete rows are handed to `write` as a table of their own, then dropped: the open
    /// row stays, and the room the rows written took is the new rows'.
    @inline(__always)
    mutating func drainIfLarge(_ write: (TableLayout) -> Void) {
        guard stack.count == 1, stack[0].size > TableLayout.drainSize, stack[0].rowCount > 1 else { return }
        drain(write)
    }

    private mutating func drain(_ write: (TableLayout) -> Void) {
        stack[0].setOpenRowAside()
        write(stack[0])
        stack[0].dropCompleteRows()
    }
}
