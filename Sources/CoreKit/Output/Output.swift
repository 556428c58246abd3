/// How a result list is printed: an aligned table for a person at a terminal,
/// tab-separated lines without header or colour for a pipe (the `gh` convention),
/// or JSON with `--json`.
public enum OutputMode: Sendable, Equatable {
    case table, tsv, json

    public init(json: Bool, stdoutIsTTY: Bool = Terminal.isTTY(Terminal.standardOutput)) {
        self = json ? .json : (stdoutIsTTY ? .table : .tsv)
    }
}

/// A list of rows with named columns, rendered for a terminal or a pipe.
/// Every cell is sanitised here, so callers may pass server text as it came.
public struct Table: Sendable {
    /// How a column behaves when a row is wider than the terminal.
    public enum Fit: Sendable, Equatable {
        /// Keeps its text whatever the width: dates, states, counts.
        case keep
        /// Gives way, down to `minimum` columns: cut at its end (`…`), or in its middle for
        /// ids and URLs, whose both ends matter. Columns give way in `order`, lowest first;
        /// one whose minimum is 0 leaves the table when there is no room for it at all.
        case shrink(order: Int, minimum: Int, middle: Bool = false)
    }

    /// One step of giving way, where a column gives way in more than one stage (a title
    /// narrows to 24 columns, another column goes, then the title narrows again): `column`
    /// narrows by what is still too wide, to no less than `minimum` (0: it may leave). A
    /// column that keeps its text (`.keep`) is clipped by a step to `minimum` at once, without
    /// `…`: a date clipped to 10 columns is its day.
    public struct Step: Sendable, Equatable {
        public let column: Int
        public let minimum: Int
        public init(column: Int, minimum: Int) {
            self.column = column
            self.minimum = minimum
        }
    }

    public var columns: [String]
    public var rows: [[String]]
    /// One per column; by default only the last column gives way.
    public var fits: [Fit]?
    /// When set, the order of giving way before any column goes past its minimum (the
    /// `fits`' orders otherwise).
    public var steps: [Step]?

    public init(columns: [String], rows: [[String]] = [], fits: [Fit]? = nil) {
        self.columns = columns
        self.rows = rows
        self.fits = fits
    }

    public init(columns: [String], fits: [Fit], rows: [[String]]) {
        self.init(columns: columns, rows: rows, fits: fits)
    }

    public mutating func append(_ row: [String]) { rows.append(row) }

    /// Tab-separated lines, no header; tabs and newlines inside a cell become spaces.
    public func tsv() -> String {
        var text = ""
        for row in rows { Self.appendTSV(row, to: &text) }
        return text
    }

    /// One row of `tsv()` appended to `text`: for a listing too long to hold as a table first.
    public static func appendTSV(_ row: [String], to text: inout String) {
        for (index, field) in row.enumerated() {
            if index > 0 { text += "\t" }
            text += Terminal.sanitizeField(field)
        }
        text += "\n"
    }

    /// Aligned columns under a header (bold when `bold`), no line wider than `width`: the
    /// columns that may give way do, in their order, and the last takes what is left.
    public func aligned(width: Int, bold: Bool) -> String {
        var measured = columns.map(TextWidth.of)
        for row in rows { Self.measure(row, into: &measured) }
        let layout = layout(measured: measured, width: width)
        var text = SGR.styled(layout.line(columns), SGR.bold, enabled: bold) + "\n"
        for row in rows { text += layout.line(row) + "\n" }
        return text
    }

    /// `row`'s cells' widths taken into `widths` (each column's widest so far): a table too
    /// long to hold is measured row by row, then laid out (`layout`) and written line by line.
    public static func measure(_ row: [String], into widths: inout [Int]) {
        for (index, cell) in row.enumerated() where index < widths.count {
            let cell = Terminal.sanitizeField(cell)
            // Text of no width (a combining mark alone) still gets a column to be shown in.
            widths[index] = max(widths[index], TextWidth.of(cell), cell.isEmpty ? 0 : 1)
        }
    }

    /// The columns' widths in `width` for rows `measured` (the header's widths to start), and
    /// each row's line.
    public struct Layout: Sendable {
        let widths: [Int]
        let fits: [Fit]
        let width: Int
        /// The columns shown: an empty one takes no room and leaves no gap.
        let shown: [Int]

        /// `row` as its line of the table, sanitised, no wider than `width`.
        public func line(_ row: [String]) -> String {
            var text = ""
            for index in shown where index < row.count {
                let cell = Terminal.sanitizeField(row[index])
                let isLast = index == shown.last
                let room = isLast ? width - TextWidth.of(text) : widths[index]
                guard room > 0 else { break }
                let fitted = TextWidth.of(cell) <= room ? cell
                    : fits[index] == .keep && !isLast ? Table.clipped(cell, to: room)
                    : Table.cutsInMiddle(fits[index]) ? TextWidth.elideMiddle(cell, to: room) : TextWidth.truncate(cell, to: room)
                text += isLast ? fitted : TextWidth.pad(fitted, to: room) + "  "
            }
            while text.hasSuffix(" ") { text.removeLast() }
            // Columns that keep their text wider than the terminal together: cut at its edge.
            return TextWidth.of(text) > width ? TextWidth.truncate(text, to: max(width, 1)) : text
        }
    }

    /// How rows of `measured` widths fit in `width`: the columns that may give way do, in
    /// their order (`steps`, else the `fits`' orders), and the last takes what is left.
    public func layout(measured: [Int], width: Int) -> Layout {
        var widths = measured
        let fits = self.fits ?? columns.indices.map { $0 == columns.count - 1 ? .shrink(order: 0, minimum: 1) : .keep }
        let giving = fits.enumerated().compactMap { index, fit -> (Int, Int, Int)? in
            if case .shrink(let order, let minimum, _) = fit { (order, index, minimum) } else { nil }
        }.sorted { ($0.0, $0.1) < ($1.0, $1.1) }
        for (_, index, minimum) in steps.map({ $0.map { (0, $0.column, $0.minimum) } }) ?? giving {
            let excess = Self.total(widths) - width
            guard excess > 0 else { break }
            // A column that keeps its text is clipped at once to its short form (the day), or not at all.
            if fits[index] == .keep {
                widths[index] = min(minimum, widths[index])
                continue
            }
            widths[index] = max(min(minimum, widths[index]), widths[index] - excess)
            // Too narrow to say anything: the column goes, and its gap with it.
            if minimum == 0 && widths[index] < 4 { widths[index] = 0 }
        }
        // Still too wide: before a column that keeps its text loses any, the others give way
        // past their minimum, and leave when too narrow to say anything.
        for (_, index, _) in giving {
            let excess = Self.total(widths) - width
            guard excess > 0 else { break }
            widths[index] = max(widths[index] - excess, 0)
            if widths[index] < 4 { widths[index] = 0 }
        }
        return Layout(widths: widths, fits: fits, width: width, shown: widths.indices.filter { widths[$0] > 0 })
    }

    /// A row's width with these column widths (a column of width 0 is not shown).
    private static func total(_ widths: [Int]) -> Int {
        let shown = widths.filter { $0 > 0 }
        return shown.reduce(0, +) + 2 * max(shown.count - 1, 0)
    }

    /// The characters of `text` that fit in `width` columns, no `…`, no space at the end.
    fileprivate static func clipped(_ text: String, to width: Int) -> String {
        var result = ""
        var used = 0
        for character in text {
            used += TextWidth.of(character)
            guard used <= width else { break }
            result.append(character)
        }
        while result.hasSuffix(" ") { result.removeLast() }
        return result
    }

    fileprivate static func cutsInMiddle(_ fit: Fit) -> Bool { if case .shrink(_, _, true) = fit { true } else { false } }

    /// The table for `mode` (`.json` is the caller's to encode; here it falls back to TSV).
    public func render(_ mode: OutputMode, width: Int = Terminal.width(), bold: Bool = Terminal.colorEnabled()) -> String {
        mode == .table ? aligned(width: width, bold: bold) : tsv()
    }
}

/// A record shown one field per line: `name:  value`, aligned, on a terminal;
/// `name<TAB>value` in a pipe. Values are sanitised here.
public enum FieldList {
    public static func render(_ fields: [(String, String)], _ mode: OutputMode) -> String {
        let width = (fields.map { TextWidth.of($0.0) }.max() ?? 0) + 2
        var text = ""
        for (name, value) in fields {
            let clean = Terminal.sanitizeField(value)
            text += mode == .table ? TextWidth.pad(name + ":", to: width) + clean + "\n" : name + "\t" + clean + "\n"
        }
        return text
    }
}
