/// A table's cells as they are read, then laid out in columns: each column as wide as its
/// widest cell, the widest columns narrowed (their cells wrapped) until the table fits.
package struct TableLayout {
    package struct Row {
        /// The row's cells are `cells[..<count]`; past them, cells an earlier row held, kept
        /// emptied for their buffers.
        var cells: [InlineText] = []
        var count = 0
        var isHeader = false
        var live: ArraySlice<InlineText> { cells[..<count] }
    }

    /// The table's rows are `rows[..<rowCount]`; past them, rows already written, kept with
    /// their cells for new rows: a long table allocated and freed two or three buffers a cell.
    private var rows: [Row] = []
    private(set) var rowCount = 0
    var inHead = false
    private var cellOpen = false
    /// What the table holds, in bytes of text plus a fixed cost for each row and cell (empty
    /// ones cost memory too): the renderer writes the complete rows of a large table out.
    private(set) var size = 0
    /// Rows already written (`dropCompleteRows`): the rest continue that table.
    private(set) var continues = false
    /// The most one cell holds; past it, `[…]`.
    static let cellLimit = 64 << 10
    /// A table holding more than this has its complete rows written out (or, nested in a
    /// cell, further cells dropped).
    static let drainSize = 1 << 20
    static let rowCost = 64
    static let cellCost = 128
    /// The most cells kept for new rows, and the most a kept cell's buffers may hold: what the
    /// written rows leave behind stays bounded whatever they held.
    static let keptCells = drainSize / cellCost
    static let keptCellBytes = 1 << 10

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
        if rowCount == rows.count { rows.append(Row()) }
        rows[rowCount].count = 0
        rows[rowCount].isHeader = inHead
        rowCount += 1
        size += Self.rowCost
        cellOpen = false
    }

    mutating func startCell(header: Bool, escapesMarkdown: Bool) {
        if rowCount == 0 { startRow() }
        if refusesMore() { return }
        size += Self.cellCost
        let head = inHead
        rows[rowCount - 1].addCell(escapesMarkdown: escapesMarkdown, header: header, inHead: head)
        cellOpen = true
    }

    mutating func endCell() { cellOpen = false }

    /// The cell text goes to; text outside any cell is dropped, as browsers move it away.
    mutating func withCell(_ body: (inout InlineText) -> Void) {
        guard cellOpen, rowCount > 0 else { return }
        size += rows[rowCount - 1].withLastCell(body)
    }

    /// Writing a large table in parts: the open row is set aside, so that the table is its
    /// complete rows, laid out as any table; `dropCompleteRows` then takes them out.
    mutating func setOpenRowAside() {
        rowCount -= 1
    }

    /// After `setOpenRowAside` and writing the rest: the open row is the table's only one,
    /// and the rows written keep their cells, emptied, for new rows.
    mutating func dropCompleteRows() {
        let written = rowCount
        rows.swapAt(0, written)
        rowCount = 1
        size = rows[0].live.reduce(Self.rowCost) { $0 + Self.cellCost + $1.bytes.count }
        continues = true
        var kept = 0
        var index = 1
        while index < rows.count && kept < Self.keptCells {
            kept += rows[index].emptyCells(keeping: Self.keptCells - kept)
            index += 1
        }
        rows.removeSubrange(index...)
    }

    /// The rows of the table (not those kept for their cells).
    private var liveRows: ArraySlice<Row> { rows[..<rowCount] }

    /// The whole table as one line of text, for a table nested in a cell.
    var flattened: [UInt8] {
        var result: [UInt8] = []
        for row in liveRows {
            let texts = row.live.map { $0.singleLine }.filter { !$0.isEmpty }
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
    func textLines(width: Int, styled: Bool, oneLineRowsInPlace: Bool = true) -> [(bytes: [UInt8], width: Int)] {
        var lines: [(bytes: [UInt8], width: Int)] = []
        forEachLine(width: width, styled: styled, oneLineRowsInPlace: oneLineRowsInPlace) { lines.append(($0, $1)) }
        return lines
    }

    /// As `textLines`, handing each line to `body` in one buffer that is reused.
    /// `oneLineRowsInPlace`: a row whose every cell fits its column on one line is written
    /// straight into its line, with no wrapped lines made for each cell (most rows of a long
    /// table, which would otherwise make three allocations a cell). False only for
    /// the test that holds the two ways to the same lines.
    func forEachLine(width: Int, styled: Bool, oneLineRowsInPlace: Bool = true, _ body: ([UInt8], Int) -> Void) {
        let rows = liveRows
        // Closures, not key paths: a key path is projected at run time, once per row.
        let columns = rows.reduce(0) { max($0, $1.count) }
        guard columns > 0 else { return }
        let gap = 2
        var widths = [Int](repeating: 0, count: columns)
        var least = [Int](repeating: 1, count: columns)
        // Each cell read once for what the columns need, its facts kept for its row's line.
        // Cells read in place, through a buffer pointer: a cell bound by `for`, or read by
        // the array's subscript, is a copy (a retain and a release of each of its buffers).
        var facts: [InlineText.OneLineFacts] = []
        for row in rows.indices {
            rows[row].cells.withUnsafeBufferPointer { cells in
                for index in 0..<rows[row].count {
                    let cell = cells[index].oneLineFacts
                    widths[index] = max(widths[index], cell.width)
                    least[index] = max(least[index], min(cell.longestWord, 12))
                    facts.append(cell)
                }
            }
        }
        // Too many columns to give each one even a column of text: cells one under another,
        // rows apart, so that the output stays as long as the text (side by side, every line
        // of the tallest cell would repeat the padding of every other column).
        if columns * (1 + gap) - gap > width { return stackedLines(width: width, styled: styled, body) }
        let available = max(width - gap * (columns - 1), columns)
        widths = Self.narrowed(widths, least: least, toFit: available)
        var line: [UInt8] = []
        line.reserveCapacity(width + 16)
        var firstCell = 0
        for rowIndex in rows.indices {
            let count = rows[rowIndex].count
            defer { firstCell += count }
            let fits = (0..<count).allSatisfy { facts[firstCell + $0].isPlain && facts[firstCell + $0].width <= widths[$0] }
            if oneLineRowsInPlace && fits {
                let lineWidth = Self.oneLine(rows[rowIndex], widths: widths, gap: gap, styled: styled, into: &line)
                body(line, lineWidth)
                rule(after: rowIndex, widths: widths, gap: gap, body)
                continue
            }
            let row = rows[rowIndex]
            let wrapped = (0..<columns).map { index in
                index < row.count ? row.cells[index].lines(width: widths[index], styled: styled && !row.isHeader) : []
            }
            let height = wrapped.reduce(0) { max($0, $1.count) }
            for lineIndex in 0..<max(height, 1) {
                line.removeAll(keepingCapacity: true)
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
                body(line, lineWidth)
            }
            rule(after: rowIndex, widths: widths, gap: gap, body)
        }
    }

    /// The dashes under the last header row before the body.
    private func rule(after rowIndex: Int, widths: [Int], gap: Int, _ body: ([UInt8], Int) -> Void) {
        let rows = liveRows
        guard rows[rowIndex].isHeader else { return }
        let nextIsBody = rowIndex + 1 < rows.count && !rows[rowIndex + 1].isHeader
        guard nextIsBody || rowIndex + 1 == rows.count else { return }
        let rule = widths.map { [UInt8](repeating: UInt8(ascii: "-"), count: $0) }
            .joined(separator: [UInt8](repeating: 0x20, count: gap))
        body(Array(rule), widths.reduce(0, +) + gap * (widths.count - 1))
    }

    /// `row`, whose every cell is plain and fits its column, as one line in `line`; its width.
    private static func oneLine(_ row: Row, widths: [Int], gap: Int, styled: Bool, into line: inout [UInt8]) -> Int {
        line.removeAll(keepingCapacity: true)
        var lineWidth = row.cells.withUnsafeBufferPointer { cells in
            // Cells read in place (see `forEachLine`).
            var lineWidth = 0
            var previous = 0
            for index in 0..<row.count {
                if index > 0 {
                    let pad = max(widths[index - 1] - previous, 0) + gap
                    line.append(contentsOf: repeatElement(0x20, count: pad))
                    lineWidth += pad
                }
                previous = cells[index].appendOneLine(to: &line, styled: styled && !row.isHeader)
                lineWidth += previous
            }
            return lineWidth
        }
        while line.last == 0x20 { line.removeLast(); lineWidth -= 1 }
        if styled && row.isHeader && !line.isEmpty { line = TextStyle.bold.sequence + line + TextStyle.reset }
        return lineWidth
    }

    /// A table too wide for side-by-side columns: each non-empty cell wrapped to the full
    /// width, a blank line between rows, header cells bold when `styled`.
    private func stackedLines(width: Int, styled: Bool, _ body: ([UInt8], Int) -> Void) {
        var wrote = false
        for row in liveRows {
            let cells = row.live.filter { !$0.isEmpty }
            guard !cells.isEmpty else { continue }
            if wrote { body([], 0) }
            wrote = true
            for cell in cells {
                cell.forEachLine(width: width, styled: styled && !row.isHeader) { bytes, lineWidth in
                    body(styled && row.isHeader && !bytes.isEmpty ? TextStyle.bold.sequence + bytes + TextStyle.reset : bytes, lineWidth)
                }
            }
        }
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
        let rows = liveRows
        let columns = rows.reduce(0) { max($0, $1.count) }
        guard columns > 0 else { return [] }
        func line(_ row: Row) -> [UInt8] {
            var cells = row.live.map { $0.singleLine }
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

extension TableLayout.Row {
    /// A cell starts at the end of the row, a kept one if there is one.
    mutating func addCell(escapesMarkdown: Bool, header: Bool, inHead: Bool) {
        if count == cells.count { cells.append(InlineText()) }
        cells[count].byteLimit = TableLayout.cellLimit
        cells[count].escapesMarkdown = escapesMarkdown
        // A header row: inside thead, or of th cells only.
        isHeader = inHead || (header && (count == 0 || isHeader))
        count += 1
    }

    /// `body` on the row's last cell; the bytes it added.
    mutating func withLastCell(_ body: (inout InlineText) -> Void) -> Int {
        guard count > 0 else { return 0 }
        return cells.withUnsafeMutableBufferPointer { cells in
            let before = cells[count - 1].bytes.count
            body(&cells[count - 1])
            return cells[count - 1].bytes.count - before
        }
    }

    /// Empties the row's cells for new ones, keeping at most `most` and none whose buffers
    /// grew large; the number kept.
    mutating func emptyCells(keeping most: Int) -> Int {
        count = 0
        if cells.count > most { cells.removeSubrange(most...) }
        cells.withUnsafeMutableBufferPointer { cells in
            for index in cells.indices {
                if cells[index].holdsMoreThan(TableLayout.keptCellBytes) {
                    cells[index] = InlineText()
                } else {
                    cells[index].removeAll()
                    cells[index].style = []
                }
            }
        }
        return cells.count
    }
}
