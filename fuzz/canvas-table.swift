// The screen's canvas and the tables' fitting, the surfaces the outside fuzzing found broken
// (issue 37). Properties: after any sequence of writes, no row of the canvas is wider than
// the canvas, no cell is the second half of a wide character without its first (nor the
// other way round), and no cell holds a control; a table at any width gives no line wider
// than the width, and a column that keeps its text shows it whole whenever the kept columns
// fit together.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard bytes.count >= 4 else { return 0 }
    let pieces = bytes[4...].split(separator: 0x1F, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
    // The canvas: each piece written at a place the input chooses.
    var canvas = Canvas(rows: 3, columns: Int(bytes[0] % 40) + 1)
    for (index, piece) in pieces.enumerated() {
        let seed = Int(bytes[index % bytes.count])
        if seed % 7 == 0 {
            canvas.fill(row: seed % 3, column: seed % canvas.columns - 2, width: seed % 5, style: .plain)
        } else {
            canvas.put(piece, row: seed % 3, column: seed % (canvas.columns + 2) - 2, width: seed % 2 == 0 ? nil : seed % 9)
        }
    }
    for row in 0..<canvas.rows {
        guard TextWidth.of(canvas.line(row)) <= canvas.columns else { fatalError("row \(row) wider than the canvas: \(canvas.line(row).debugDescription)") }
        for column in 0..<canvas.columns {
            let cell = canvas[row, column]
            if let character = cell.character {
                if character.unicodeScalars.contains(where: { $0.value < 0x20 || Terminal.replacement(for: $0) == "" }) {
                    fatalError("a control in a cell: \(String(character).debugDescription)")
                }
                let wide = TextWidth.of(character) == 2
                guard !wide || (column + 1 < canvas.columns && canvas[row, column + 1].character == nil) else {
                    fatalError("a wide character without its second half at \(row),\(column)")
                }
            } else {
                guard column > 0, let before = canvas[row, column - 1].character, TextWidth.of(before) == 2 else {
                    fatalError("a second half without its first at \(row),\(column)")
                }
            }
        }
    }
    // The table: columns and fits from the first bytes, cells from the pieces.
    let columnCount = Int(bytes[1] % 5) + 1
    let width = Int(bytes[2] % 100) + 1
    let fits: [Table.Fit] = (0..<columnCount).map { index in
        let choice = bytes[(3 + index) % bytes.count]
        return choice % 3 == 0 ? .keep : .shrink(order: Int(choice % 4), minimum: Int(choice % 13), middle: choice % 2 == 0)
    }
    let cells = pieces.map(Terminal.sanitizeField)
    var rows: [[String]] = []
    var index = columnCount
    while index + columnCount <= cells.count {
        rows.append(Array(cells[index..<index + columnCount]))
        index += columnCount
    }
    let header = (0..<columnCount).map { cells.indices.contains($0) ? cells[$0] : "C\($0)" }
    let text = Table(columns: header, rows: rows, fits: fits).aligned(width: width, bold: false)
    for line in text.split(separator: "\n") {
        guard TextWidth.of(String(line)) <= width else { fatalError("a line wider than \(width): \(line.debugDescription)") }
    }
    let keeps = (0..<columnCount).filter { fits[$0] == .keep }
    let keptWidth = keeps.map { column in ([header] + rows).map { TextWidth.of($0[column]) }.max() ?? 0 }
    let shownKeeps = keptWidth.filter { $0 > 0 }
    if shownKeeps.reduce(0, +) + 2 * max(shownKeeps.count - 1, 0) <= width {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        for (number, row) in rows.enumerated() where number + 1 < lines.count {
            // A line ends without trailing spaces: a cell's own are not text it loses.
            for column in keeps {
                var cell = Substring(row[column])
                while cell.last == " " { cell.removeLast() }
                // By bytes: a leading mark fuses with the padding before it into one Character.
                guard !cell.isEmpty, Array(lines[number + 1].utf8).firstRange(of: Array(cell.utf8)) == nil else { continue }
                fatalError("a kept column lost its text: \(row[column].debugDescription) in \(lines[number + 1].debugDescription) at \(width)")
            }
        }
    }
    return 0
}
