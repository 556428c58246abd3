/// A table's cells as they are read, then laid out in columns: each column as wide as its
/// widest cell, the widest columns narrowed (their cells wrapped) until the table fits.
package struct TableLayout {
    package struct Row {
        var cells: [InlineText] = []
        var isHeader = false
    }

    var rows: [Row] = []
    var inHead = false
    private var cellOpen = false
    /// What the table holds, in bytes of text plus a fixed cost for each row and cell (empty
    /// ones cost memory too): the renderer writes the complete rows of a large table out.
    private(set) var size = 0
    /// Rows already written (`takeCompleteRows`): the rest continue that table.
    private(set) var continues = false
    /// The most one cell holds; past it, `[…]`.
    static let cellLimit = 64 << 10
    /// A table holding more than this has its complete rows written out (or, nested in a
    /// cell, further cells dropped).
    static let drainSize = 1 << 20
    static let rowCost = 64
    static let cellCost = 128

    /// A table inside a cell: flattened into that cell's text, so never written in parts;
    /// past `drainSize` (an outermost table's one row: four times that) further rows and cells
    /// are dropped and `[…]` ends its text.
    var nested = false
    private var isCut = false

    private mutating func refusesMore() -> Bool {
        // The outermost table is written in parts; only its one open row can grow past this.
        guard size > (nested ? Self.drainSize : 4 * Self.drainSize) else { return false }
        isCut = true
        cellOpen = false
        return true
    }

    mutating func startRow() {
        if refusesMore() { return }
        rows.append(Row(cells: spareRows.popLast() ?? [], isHeader: inHead))
        size += Self.rowCost
        cellOpen = false
    }

    mutating func startCell(header: Bool, escapesMarkdown: Bool) {
        if rows.isEmpty { startRow() }
        if refusesMore() { return }
        size += Self.cellCost
        var cell = spareCells.popLast() ?? InlineText()
        cell.byteLimit = Self.cellLimit
        cell.escapesMarkdown = escapesMarkdown
        let row = rows.count - 1
        let first = rows[row].cells.isEmpty
        rows[row].cells.append(consume cell)
        // A header row: inside thead, or of th cells only.
        rows[row].isHeader = inHead || (header && (first || rows[row].isHeader))
        cellOpen = true
    }

    mutating func endCell() { cellOpen = false }

    /// The cell text goes to; text outside any cell is dropped, as browsers move it away.
    mutating func withCell(_ body: (inout InlineText) -> Void) {
        guard cellOpen, !rows.isEmpty, !rows[rows.count - 1].cells.isEmpty else { return }
        let row = rows.count - 1
        let column = rows[row].cells.count - 1
        let before = rows[row].cells[column].bytes.count
        body(&rows[row].cells[column])
        size += rows[row].cells[column].bytes.count - before
    }

    /// Cells of rows already written, emptied: new cells take their buffers (a long table
    /// allocated and freed two or three buffers a cell).
    private var spareCells: [InlineText] = []
    /// Rows' cell lists, emptied, for new rows.
    private var spareRows: [[InlineText]] = []

    /// Keeps the cells of `part`, written, for new cells: as many as a part can hold, so that a
    /// long table allocates no cell after its first part. What the spares hold is bounded by
    /// the part they came from (`drainSize`).
    mutating func reuseCells(of part: consuming TableLayout) {
        for row in part.rows.indices {
            // Moved out, not copied: each cell's buffers are its own again, and emptied in place.
            while spareCells.count < Self.drainSize / Self.cellCost, var cell = part.rows[row].cells.popLast() {
                cell.removeAll()
                cell.style = []
                spareCells.append(consume cell)
            }
            if part.rows[row].cells.isEmpty && spareRows.count < Self.drainSize / Self.rowCost { spareRows.append(part.rows[row].cells) }
        }
    }

    /// The rows before the open one, as a table of their own, leaving the open row here: a
    /// large table is written in parts, each laid out on its own.
    mutating func takeCompleteRows() -> TableLayout? {
        guard rows.count > 1 else { return nil }
        var part = TableLayout()
        // The rows move to the part, not copied; the open row stays.
        let open = rows.removeLast()
        swap(&part.rows, &rows)
        rows.append(open)
        part.continues = continues
        size = rows[0].cells.reduce(Self.rowCost) { $0 + Self.cellCost + $1.bytes.count }
        continues = true
        return part
    }

    /// The whole table as one line of text, for a table nested in a cell.
    var flattened: [UInt8] {
        var result: [UInt8] = []
        for row in rows {
            let texts = row.cells.map { $0.singleLine }.filter { !$0.isEmpty }
            guard !texts.isEmpty else { continue }
            if !result.isEmpty { result += Array("; ".utf8) }
            for (index, text) in texts.enumerated() {
                if index > 0 { result.append(0x20) }
                result += text
            }
        }
        if isCut { result += Array((" " + InlineText.cutMark).utf8) }
        return result
    }

    /// Lines for a terminal at most `width` columns wide, header rows bold when `styled` and
    /// underlined with dashes.
    func textLines(width: Int, styled: Bool) -> [(bytes: [UInt8], width: Int)] {
        textLines(width: width, styled: styled, oneLineRowsInPlace: true)
    }

    /// `oneLineRowsInPlace`: a row whose every cell fits its column on one line is written
    /// straight into its line, with no wrapped lines made for each cell (most rows of a long
    /// table, which would otherwise make three allocations a cell). False only for
    /// the test that holds the two ways to the same lines.
    func textLines(width: Int, styled: Bool, oneLineRowsInPlace: Bool) -> [(bytes: [UInt8], width: Int)] {
        // Closures, not key paths: a key path is projected at run time, once per row.
        let columns = rows.reduce(0) { max($0, $1.cells.count) }
        guard columns > 0 else { return [] }
        let gap = 2
        var widths = [Int](repeating: 0, count: columns)
        var least = [Int](repeating: 1, count: columns)
        // Cells read in place, through a buffer pointer: a cell bound by `for`, or read by
        // the array's subscript, is a copy (a retain and a release of each of its buffers).
        for row in rows.indices {
            rows[row].cells.withUnsafeBufferPointer { cells in
                for index in cells.indices {
                    widths[index] = max(widths[index], cells[index].singleLineWidth)
                    least[index] = max(least[index], min(cells[index].longestWord, 12))
                }
            }
        }
        // Too many columns to give each one even a column of text: cells one under another,
        // rows apart, so that the output stays as long as the text (side by side, every line
        // of the tallest cell would repeat the padding of every other column).
        if columns * (1 + gap) - gap > width { return stackedLines(width: width, styled: styled) }
        let available = max(width - gap * (columns - 1), columns)
        widths = Self.narrowed(widths, least: least, toFit: available)
        var lines: [(bytes: [UInt8], width: Int)] = []
        for rowIndex in rows.indices {
            if oneLineRowsInPlace, let line = Self.oneLine(rows[rowIndex], widths: widths, gap: gap, styled: styled) {
                lines.append(line)
                appendRule(after: rowIndex, widths: widths, gap: gap, to: &lines)
                continue
            }
            let row = rows[rowIndex]
            let wrapped = (0..<columns).map { index in
                index < row.cells.count ? row.cells[index].lines(width: widths[index], styled: styled && !row.isHeader) : []
            }
            let height = wrapped.reduce(0) { max($0, $1.count) }
            for lineIndex in 0..<max(height, 1) {
                var line: [UInt8] = []
                line.reserveCapacity(width + 16)
                var lineWidth = 0
                for column in 0..<columns {
                    let piece: (bytes: [UInt8], width: Int) = lineIndex < wrapped[column].count ? wrapped[column][lineIndex] : ([], 0)
                    if column > 0 {
                        let pad = widths[column - 1] - (lineIndex < wrapped[column - 1].count ? wrapped[column - 1][lineIndex].width : 0)
                        line.append(contentsOf: repeatElement(0x20, count: max(pad, 0) + gap))
                        lineWidth += max(pad, 0) + gap
                    }
                    line += piece.bytes
                    lineWidth += piece.width
                }
                while line.last == 0x20 { line.removeLast(); lineWidth -= 1 }
                if styled && row.isHeader && !line.isEmpty { line = TextStyle.bold.sequence + line + TextStyle.reset }
                lines.append((line, lineWidth))
            }
            appendRule(after: rowIndex, widths: widths, gap: gap, to: &lines)
        }
        return lines
    }

    /// The dashes under the last header row before the body.
    private func appendRule(after rowIndex: Int, widths: [Int], gap: Int, to lines: inout [(bytes: [UInt8], width: Int)]) {
        let nextIsBody = rowIndex + 1 < rows.count && !rows[rowIndex + 1].isHeader
        guard rows[rowIndex].isHeader && (nextIsBody || rowIndex + 1 == rows.count) else { return }
        let rule = widths.map { [UInt8](repeating: UInt8(ascii: "-"), count: $0) }
            .joined(separator: [UInt8](repeating: 0x20, count: gap))
        lines.append((Array(rule), widths.reduce(0, +) + gap * (widths.count - 1)))
    }

    /// `row` as one line, when each of its cells fits its column on one line; else nil.
    private static func oneLine(_ row: Row, widths: [Int], gap: Int, styled: Bool) -> (bytes: [UInt8], width: Int)? {
        row.cells.withUnsafeBufferPointer { cells in
            oneLine(cells, widths: widths, gap: gap, styled: styled && !row.isHeader)
        }.map { line in
            var (line, lineWidth) = line
            while line.last == 0x20 { line.removeLast(); lineWidth -= 1 }
            if styled && row.isHeader && !line.isEmpty { line = TextStyle.bold.sequence + line + TextStyle.reset }
            return (line, lineWidth)
        }
    }

    /// `cells` as one line, when each fits its column on one line; else nil. Cells read in
    /// place (see `textLines`).
    private static func oneLine(_ cells: UnsafeBufferPointer<InlineText>, widths: [Int], gap: Int,
                                styled: Bool) -> (bytes: [UInt8], width: Int)? {
        for index in cells.indices where !cells[index].fitsOneLine(width: widths[index]) { return nil }
        var line: [UInt8] = []
        var lineWidth = 0
        var previous = 0
        for index in cells.indices {
            if index > 0 {
                let pad = max(widths[index - 1] - previous, 0) + gap
                line.append(contentsOf: repeatElement(0x20, count: pad))
                lineWidth += pad
            }
            previous = cells[index].appendOneLine(to: &line, styled: styled)
            lineWidth += previous
        }
        return (line, lineWidth)
    }

    /// A table too wide for side-by-side columns: each non-empty cell wrapped to the full
    /// width, a blank line between rows, header cells bold when `styled`.
    private func stackedLines(width: Int, styled: Bool) -> [(bytes: [UInt8], width: Int)] {
        var lines: [(bytes: [UInt8], width: Int)] = []
        for row in rows {
            let cells = row.cells.filter { !$0.isEmpty }
            guard !cells.isEmpty else { continue }
            if !lines.isEmpty { lines.append(([], 0)) }
            for cell in cells {
                cell.forEachLine(width: width, styled: styled && !row.isHeader) { bytes, lineWidth in
                    let line = styled && row.isHeader && !bytes.isEmpty ? TextStyle.bold.sequence + bytes + TextStyle.reset : bytes
                    lines.append((line, lineWidth))
                }
            }
        }
        return lines
    }

    /// The widths after narrowing the widest column one column at a time (the first of equal
    /// widest ones) until they add up to `available` or no column can give more. Computed in
    /// O(columns × log(widest)) rather than step by step, which cost a pass over every column
    /// for each column of excess (quadratic on a wide row).
    static func narrowed(_ widths: [Int], least: [Int], toFit available: Int) -> [Int] {
        // The widths once every column is capped at `level` (never below its least).
        func capped(_ level: Int) -> [Int] {
            widths.indices.map { min(widths[$0], max(level, least[$0])) }
        }
        func total(_ level: Int) -> Int {
            widths.indices.reduce(0) { $0 + min(widths[$1], max(level, least[$1])) }
        }
        let widest = widths.max() ?? 0
        guard total(widest) > available else { return widths }
        guard total(0) <= available else { return capped(0) }
        // The highest level at which everything fits: total(low) <= available < total(low + 1).
        var low = 0
        var high = widest
        while high - low > 1 {
            let middle = low + (high - low) / 2
            if total(middle) <= available { low = middle } else { high = middle }
        }
        // From `low + 1`, the stepwise narrowing takes one column from the first columns that
        // stand at that level and can give, until the table fits.
        var result = capped(low + 1)
        var excess = total(low + 1) - available
        for index in result.indices where excess > 0 && result[index] == low + 1 && least[index] <= low {
            result[index] = low
            excess -= 1
        }
        return result
    }

    /// A GitHub-flavoured Markdown table; the first row is its header, as the format requires.
    func markdownLines() -> [[UInt8]] {
        let columns = rows.reduce(0) { max($0, $1.cells.count) }
        guard columns > 0 else { return [] }
        func line(_ row: Row) -> [UInt8] {
            var cells = row.cells.map { $0.singleLine }
            while cells.count < columns { cells.append([]) }
            return Array("| ".utf8) + Array(cells.joined(separator: Array(" | ".utf8))) + Array(" |".utf8)
        }
        // A part after the first continues the table above it: rows only.
        if continues { return rows.map(line) }
        var lines = [line(rows[0])]
        lines.append(Array(("|" + String(repeating: " --- |", count: columns)).utf8))
        for row in rows.dropFirst() { lines.append(line(row)) }
        return lines
    }
}
