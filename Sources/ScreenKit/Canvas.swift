import CoreKit

/// What a screen draws, as a grid of cells: the pure side of every render function, which
/// tests read as text without a terminal. Text put here is cleaned by the toolbox's one rule
/// (`Terminal.replacement(for:)`), so no string from a server can drive the terminal, and is
/// clipped at the edges by display width (wide characters take two cells, combining marks none).
public struct Canvas: Sendable, Equatable {
    public struct Cell: Sendable, Equatable {
        /// The character; nil for the second cell of a wide one.
        public var character: Character?
        public var style: Style
    }

    public let rows: Int
    public let columns: Int
    private(set) var cells: [Cell]

    public init(rows: Int, columns: Int) {
        self.rows = max(rows, 0)
        self.columns = max(columns, 0)
        cells = Array(repeating: Cell(character: " ", style: .plain), count: self.rows * self.columns)
    }

    public subscript(row: Int, column: Int) -> Cell { cells[row * columns + column] }

    /// Writes `text` from `column` on `row`, at most `width` columns (to the edge by default),
    /// and returns the column after the last one written. Tabs and newlines become spaces.
    @discardableResult
    public mutating func put(_ text: String, row: Int, column: Int, width: Int? = nil, style: Style = .plain) -> Int {
        guard row >= 0, row < rows, column < columns else { return column }
        let end = min(columns, width.map { column + max($0, 0) } ?? columns)
        var x = column
        for whole in Self.clean(text) {
          for character in Self.cells(of: whole) {
            let cellWidth = TextWidth.of(character)
            if cellWidth == 0 {
                // A lone combining mark or zero-width scalar: joined to the cell before, if any.
                if x > max(column, 0), x - 1 < columns, let previous = cells[row * columns + x - 1].character {
                    cells[row * columns + x - 1].character = Character(String(previous) + String(character))
                }
                continue
            }
            guard x + cellWidth <= end else { break }
            if x >= 0 {
                unpair(row: row, from: x, width: cellWidth)
                cells[row * columns + x] = Cell(character: character, style: style)
                if cellWidth == 2 { cells[row * columns + x + 1] = Cell(character: nil, style: style) }
            }
            x += cellWidth
          }
        }
        return x
    }

    /// A cluster wider than two columns (a family drawn through ncurses, a skin tone) as the
    /// cells it takes: each scalar that takes columns starts one, zero-width ones join it. So
    /// every cell holds at most two columns, as the terminal places them.
    static func cells(of character: Character) -> [Character] {
        guard TextWidth.of(character) > 2 else { return [character] }
        var groups: [String] = []
        for scalar in character.unicodeScalars {
            if TextWidth.width(scalar) > 0 || groups.isEmpty { groups.append(String(scalar)) } else { groups[groups.count - 1].unicodeScalars.append(scalar) }
        }
        // A group is one grapheme as a rule; if one is not, its graphemes, never a trap.
        return groups.flatMap { Array($0) }
    }

    /// Before cells `from..<from + width` of `row` are written: a wide character only half of
    /// which they cover loses its other half too (a space in its place), so that no cell is a
    /// second half without its first, nor a wide character without its second.
    private mutating func unpair(row: Int, from: Int, width: Int) {
        let start = row * columns
        if from > 0, from < columns, cells[start + from].character == nil {
            cells[start + from - 1].character = " "
        }
        let after = from + width
        if after < columns, after > 0, cells[start + after].character == nil {
            cells[start + after].character = " "
        }
    }

    /// Fills `width` cells of `row` from `column` with spaces in `style`.
    public mutating func fill(row: Int, column: Int = 0, width: Int? = nil, style: Style) {
        guard row >= 0, row < rows else { return }
        let end = min(columns, width.map { column + $0 } ?? columns)
        guard end > max(column, 0) else { return }
        unpair(row: row, from: max(column, 0), width: end - max(column, 0))
        for x in max(column, 0)..<end { cells[row * columns + x] = Cell(character: " ", style: style) }
    }

    /// Adds `style`'s attributes to every cell of `row` from `column` (a selected row).
    public mutating func highlight(row: Int, column: Int = 0, width: Int? = nil, style: Style) {
        guard row >= 0, row < rows else { return }
        let end = min(columns, width.map { column + $0 } ?? columns)
        for x in max(column, 0)..<max(end, max(column, 0)) {
            cells[row * columns + x].style = cells[row * columns + x].style.merged(with: style)
        }
    }

    /// Row `row` as text, without trailing spaces.
    public func line(_ row: Int) -> String {
        var text = ""
        for x in 0..<columns { if let character = self[row, x].character { text.append(character) } }
        while text.last == " " { text.removeLast() }
        return text
    }

    /// The whole canvas as text, a line per row.
    public var text: String { (0..<rows).map(line).joined(separator: "\n") }

    /// The runs of one row that share a style, for the terminal: (column, characters, style).
    func runs(of row: Int) -> [(column: Int, text: String, style: Style)] {
        var runs: [(column: Int, text: String, style: Style)] = []
        for x in 0..<columns {
            let cell = self[row, x]
            guard let character = cell.character else { continue }
            if let last = runs.last, last.style == cell.style {
                runs[runs.count - 1].text.append(character)
            } else {
                runs.append((x, String(character), cell.style))
            }
        }
        return runs
    }

    /// Text with what a terminal would obey removed, and tabs and newlines made spaces.
    static func clean(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0.value < 0x20 || Terminal.replacement(for: $0) != nil }) else { return text }
        return Terminal.sanitizeField(text)
    }
}
