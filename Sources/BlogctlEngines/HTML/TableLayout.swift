/// A table's cells as they are read, then laid out in columns: each column as wide as its
/// widest cell, the widest columns narrowed (their cells wrapped) until the table fits.
package struct TableLayout {
    /// A line of the table: appends its bytes to the buffer given, returns its width.
    typealias LineWriter = (inout [UInt8]) -> Int

    /// A row: its cells are `cells[firstCell...]` up to the next row's; `firstAtom` and
    /// `firstByte` are where its text starts in `atoms` and `text`.
    struct Row {
        var firstCell: Int
        var firstAtom: Int
        var firstByte: Int
        var isHeader: Bool
    }

    /// Every cell's text, one block after another (`InlineText.startBlock`), and each cell as
    /// its range of the text's atoms: a cell costs no buffers of its own, so a long table
    /// allocates nothing per cell and lays its rows out reading two buffers.
    private var cellText = InlineText()
    private var cells: [Range<Int>] = []
    private var rows: [Row] = []
    private var cellOpen = false
    private var text: [UInt8] { cellText.bytes }
    private var atoms: [InlineText.Atom] { cellText.atoms }
    var inHead = false
    /// What the table holds, in bytes of text plus a fixed cost for each row and cell (empty
    /// ones cost memory too): the renderer writes the complete rows of a large table out.
    private(set) var size = 0
    /// Rows already written (`dropCompleteRows`): the rest continue that table.
    private(set) var continues = false
    /// Writing a large table in parts: the open row set aside (`setOpenRowAside`).
    private var openRowAside = false
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
        return true
    }

    var rowCount: Int { rows.count - (openRowAside ? 1 : 0) }

    mutating func startRow() {
        endCell()
        if refusesMore() { return }
        rows.append(Row(firstCell: cells.count, firstAtom: cellText.atoms.count, firstByte: cellText.bytes.count, isHeader: inHead))
        size += Self.rowCost
    }

    mutating func startCell(header: Bool, escapesMarkdown: Bool) {
        endCell()
        if rows.isEmpty { startRow() }
        if refusesMore() { return }
        size += Self.cellCost
        let row = rows.count - 1
        let first = cells.count == rows[row].firstCell
        // A header row: inside thead, or of th cells only.
        rows[row].isHeader = inHead || (header && (first || rows[row].isHeader))
        cellText.startBlock()
        cellText.style = []
        cellText.byteLimit = Self.cellLimit
        cellText.escapesMarkdown = escapesMarkdown
        cellOpen = true
    }

    /// The open cell ends: its atoms are the cell.
    mutating func endCell() {
        guard cellOpen else { return }
        cellOpen = false
        cells.append(cellText.blockStart..<cellText.atoms.count)
    }

    /// The cell text goes to; text outside any cell is dropped, as browsers move it away.
    mutating func withCell(_ body: (inout InlineText) -> Void) {
        guard cellOpen else { return }
        let before = cellText.bytes.count
        body(&cellText)
        size += cellText.bytes.count - before
    }

    /// Writing a large table in parts: the open row is set aside, so that the table is its
    /// complete rows, laid out as any table; `dropCompleteRows` then takes them out.
    mutating func setOpenRowAside() {
        openRowAside = true
    }

    /// After `setOpenRowAside` and writing the rest: the open row is the table's only one,
    /// its text moved to the start of the buffers, which keep their room for new rows.
    mutating func dropCompleteRows() {
        openRowAside = false
        let open = rows[rows.count - 1]
        cellText.removeFirst(atoms: open.firstAtom, bytes: open.firstByte)
        cells.removeSubrange(0..<open.firstCell)
        cells.withUnsafeMutableBufferPointer { cells in
            for index in cells.indices {
                cells[index] = (cells[index].lowerBound - open.firstAtom)..<(cells[index].upperBound - open.firstAtom)
            }
        }
        rows = [Row(firstCell: 0, firstAtom: 0, firstByte: 0, isHeader: open.isHeader)]
        size = Self.rowCost + (cells.count + (cellOpen ? 1 : 0)) * Self.cellCost + cellText.bytes.count
        continues = true
    }

    /// The cells of row `index` (a range of `cells`).
    private func cellRange(ofRow index: Int) -> Range<Int> {
        rows[index].firstCell..<(index + 1 < rows.count ? rows[index + 1].firstCell : cells.count)
    }

    /// Cell `index` as a text of its own, for the ways a cell is laid out other than on one
    /// line in place.
    private func cell(_ index: Int) -> InlineText {
        InlineText(atoms: atoms[cells[index]], of: text)
    }

    /// Whether every cell to lay out is written: the table has ended (`endCell`), or its open
    /// row is set aside.
    private var isLaidOutWhole: Bool { !cellOpen || openRowAside }

    /// The cells of each row laid out (not the open row set aside), as texts of their own.
    private var rowsOfCells: [(cells: [InlineText], isHeader: Bool)] {
        assert(isLaidOutWhole)
        return (0..<rowCount).map { row in (cellRange(ofRow: row).map(cell), rows[row].isHeader) }
    }

    /// The whole table as one line of text, for a table nested in a cell.
    var flattened: [UInt8] {
        var result: [UInt8] = []
        for row in rowsOfCells {
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
    func textLines(width: Int, styled: Bool, oneLineRowsInPlace: Bool = true) -> [(bytes: [UInt8], width: Int)] {
        var lines: [(bytes: [UInt8], width: Int)] = []
        forEachLine(width: width, styled: styled, oneLineRowsInPlace: oneLineRowsInPlace) { write in
            var line: [UInt8] = []
            let lineWidth = write(&line)
            lines.append((line, lineWidth))
        }
        return lines
    }

    /// As `textLines`, each line handed to `body` as a writer: given a buffer, it appends the
    /// line's bytes and returns its width (a page writes a row straight into its output).
    /// `oneLineRowsInPlace`: a row whose every cell fits its column on one line is written
    /// straight from the table's buffers, with no text made for each cell (most rows of a
    /// long table). False only for the test that holds the two ways to the same lines.
    func forEachLine(width: Int, styled: Bool, oneLineRowsInPlace: Bool = true, _ body: (LineWriter) -> Void) {
        assert(isLaidOutWhole)
        let rowCount = rowCount
        let columns = (0..<rowCount).reduce(0) { max($0, cellRange(ofRow: $1).count) }
        guard columns > 0 else { return }
        let gap = 2
        var widths = [Int](repeating: 0, count: columns)
        var least = [Int](repeating: 1, count: columns)
        // Each cell read once for what the columns need, its facts kept for its row's line.
        var facts: [InlineText.OneLineFacts] = []
        facts.reserveCapacity(cells.count)
        atoms.withUnsafeBufferPointer { atoms in
            widths.withUnsafeMutableBufferPointer { widths in
                least.withUnsafeMutableBufferPointer { least in
                    for row in 0..<rowCount {
                        let range = cellRange(ofRow: row)
                        for index in range {
                            let cell = InlineText.oneLineFacts(UnsafeBufferPointer(rebasing: atoms[cells[index]]))
                            let column = index - range.lowerBound
                            widths[column] = max(widths[column], cell.width)
                            least[column] = max(least[column], min(cell.longestWord, 12))
                            facts.append(cell)
                        }
                    }
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
        // The table's buffers read in place for every row (each read of a buffer held in the
        // table is otherwise a retain and a release).
        cellText.bytes.withUnsafeBufferPointer { text in
            cellText.atoms.withUnsafeBufferPointer { atoms in
                cells.withUnsafeBufferPointer { cells in
                    for rowIndex in 0..<rowCount {
                        let range = cellRange(ofRow: rowIndex)
                        let isHeader = rows[rowIndex].isHeader
                        var fits = oneLineRowsInPlace
                        for index in range where fits {
                            let cell = facts[index]  // the first row's first cell is cell 0
                            fits = cell.isPlain && cell.width <= widths[index - range.lowerBound]
                        }
                        if fits {
                            widths.withUnsafeBufferPointer { widths in
                                body { Self.oneLine(UnsafeBufferPointer(rebasing: cells[range]), of: text, atoms, widths: widths,
                                                    gap: gap, styled: styled, isHeader: isHeader, into: &$0) }
                            }
                        } else {
                            wrappedLines(range, columns: columns, widths: widths, gap: gap, styled: styled, isHeader: isHeader,
                                         line: &line, body)
                        }
                        if isHeader { rule(after: rowIndex, widths: widths, gap: gap, body) }
                    }
                }
            }
        }
    }

    /// The cells `range`, each wrapped in its column, side by side in as many lines as the
    /// tallest takes.
    private func wrappedLines(_ range: Range<Int>, columns: Int, widths: [Int], gap: Int, styled: Bool, isHeader: Bool,
                              line: inout [UInt8], _ body: (LineWriter) -> Void) {
        let wrapped = (0..<columns).map { column in
            column < range.count ? cell(range.lowerBound + column).lines(width: widths[column], styled: styled && !isHeader) : []
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
            if styled && isHeader && !line.isEmpty { line = TextStyle.bold.sequence + line + TextStyle.reset }
            body { [line] in $0 += line; return lineWidth }
        }
    }

    /// The dashes under the last header row before the body.
    private func rule(after rowIndex: Int, widths: [Int], gap: Int, _ body: (LineWriter) -> Void) {
        guard rows[rowIndex].isHeader else { return }
        let nextIsBody = rowIndex + 1 < rowCount && !rows[rowIndex + 1].isHeader
        guard nextIsBody || rowIndex + 1 == rowCount else { return }
        // Empty columns at the end have no dashes, and the line ends at the last ones.
        var rule = Array(widths.map { [UInt8](repeating: UInt8(ascii: "-"), count: $0) }
            .joined(separator: [UInt8](repeating: 0x20, count: gap)))
        while rule.last == 0x20 { rule.removeLast() }
        body { $0 += rule; return rule.count }
    }

    /// `cells` (their atoms' ranges), each plain and fitting its column, as one line appended
    /// to `line`; its width.
    private static func oneLine(_ cells: UnsafeBufferPointer<Range<Int>>, of text: UnsafeBufferPointer<UInt8>,
                                _ atoms: UnsafeBufferPointer<InlineText.Atom>, widths: UnsafeBufferPointer<Int>, gap: Int,
                                styled: Bool, isHeader: Bool, into line: inout [UInt8]) -> Int {
        let start = line.count
        var lineWidth = 0
        var previous = 0
        for column in cells.indices {
            if column > 0 {
                let pad = max(widths[column - 1] - previous, 0) + gap
                for _ in 0..<pad { line.append(0x20) }
                lineWidth += pad
            }
            previous = InlineText.appendOneLine(text, UnsafeBufferPointer(rebasing: atoms[cells[column]]), to: &line,
                                                styled: styled && !isHeader)
            lineWidth += previous
        }
        while line.count > start && line.last == 0x20 { line.removeLast(); lineWidth -= 1 }
        if styled && isHeader && line.count > start {
            line.insert(contentsOf: TextStyle.bold.sequence, at: start)
            line += TextStyle.reset
        }
        return lineWidth
    }

    /// A table too wide for side-by-side columns: each non-empty cell wrapped to the full
    /// width, a blank line between rows, header cells bold when `styled`.
    private func stackedLines(width: Int, styled: Bool, _ body: (LineWriter) -> Void) {
        var wrote = false
        for row in rowsOfCells {
            let cells = row.cells.filter { !$0.isEmpty }
            guard !cells.isEmpty else { continue }
            if wrote { body { _ in 0 } }
            wrote = true
            for cell in cells {
                cell.forEachLine(width: width, styled: styled && !row.isHeader) { bytes, lineWidth in
                    let line = styled && row.isHeader && !bytes.isEmpty ? TextStyle.bold.sequence + bytes + TextStyle.reset : bytes
                    body { $0 += line; return lineWidth }
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
        let rows = rowsOfCells
        let columns = rows.reduce(0) { max($0, $1.cells.count) }
        guard columns > 0 else { return [] }
        func line(_ row: (cells: [InlineText], isHeader: Bool)) -> [UInt8] {
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
