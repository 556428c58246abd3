import CoreKit

/// The tables open: the innermost, and those it is nested in. Text and style go to the
/// innermost one's open cell; a table nested in a cell is flattened into that cell when it
/// ends; the outermost is handed back to be laid out when it ends, or in parts of complete
/// rows once it holds `TableLayout.drainSize` (a nested table that large takes no more cells).
struct OpenTables {
    /// Kept apart from the rest: every cell and every piece of text goes to it, and an
    /// element of an array is reached through the array's checks each time.
    private var innermost: TableLayout?
    /// The tables around the innermost, outermost first.
    private var outer: [TableLayout] = []
    /// The work of the cells' text (part of the renderer's `work`).
    private(set) var cellWork = 0

    var isEmpty: Bool { innermost == nil }

    mutating func open() {
        var table = TableLayout()
        if let around = innermost {
            table.nested = true
            outer.append(around)
        }
        innermost = table
    }

    /// The innermost table's parts, as their tags start and end.
    mutating func startRow() { innermost!.startRow() }

    mutating func startCell(header: Bool, escapesMarkdown: Bool) {
        innermost!.startCell(header: header, escapesMarkdown: escapesMarkdown)
    }

    mutating func endCell() { innermost!.endCell() }

    mutating func setInHead(_ inHead: Bool) { innermost!.inHead = inHead }

    /// The innermost table ends: the outermost is handed back, a nested one goes into its
    /// parent's cell as text (nil).
    mutating func close() -> TableLayout? {
        var table = innermost!
        innermost = outer.popLast()
        table.endCell()
        if innermost == nil { return table }
        let text = table.flattened
        withCell { $0.append(collapsingEscaped: text) }
        return nil
    }

    /// Text as the markup gives it, into the open cell.
    mutating func append(_ text: UnsafeBufferPointer<UInt8>) {
        innermost!.withCell { $0.append(collapsing: text) }
    }

    /// The open cell, for what the renderer puts there (words, spaces), its work counted.
    mutating func withCell(_ body: (inout InlineText) -> Void) {
        var work = 0
        innermost!.withCell { cell in
            let before = cell.work
            body(&cell)
            work = cell.work - before
        }
        cellWork += work
    }

    mutating func setStyle(_ style: TextStyle) {
        innermost!.withCell { $0.style = style }
    }

    /// Once the innermost table holds `TableLayout.drainSize` and is the outermost, its
    /// complete rows are handed to `write` as a table of their own, then dropped: the open
    /// row stays, and the room the rows written took is the new rows'.
    @inline(__always)
    mutating func drainIfLarge(_ write: (TableLayout) -> Void) {
        guard outer.isEmpty, let size = innermost?.size, size > TableLayout.drainSize, innermost!.rowCount > 1 else { return }
        drain(write)
    }

    private mutating func drain(_ write: (TableLayout) -> Void) {
        innermost!.setOpenRowAside()
        write(innermost!)
        innermost!.dropCompleteRows()
    }
}
