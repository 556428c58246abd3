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
    public var columns: [String]
    public var rows: [[String]]

    public init(columns: [String], rows: [[String]] = []) {
        self.columns = columns
        self.rows = rows
    }

    public mutating func append(_ row: [String]) { rows.append(row) }

    /// Tab-separated lines, no header; tabs and newlines inside a cell become spaces.
    public func tsv() -> String {
        var text = ""
        for row in rows {
            text += row.map(Terminal.sanitizeField).joined(separator: "\t")
            text += "\n"
        }
        return text
    }

    /// Aligned columns under a header (bold when `bold`), the last column cut to `width`.
    public func aligned(width: Int, bold: Bool) -> String {
        let cells = rows.map { $0.map(Terminal.sanitizeField) }
        var widths = columns.map(TextWidth.of)
        for row in cells {
            for (index, cell) in row.enumerated() where index < widths.count {
                widths[index] = max(widths[index], TextWidth.of(cell))
            }
        }
        func line(_ row: [String]) -> String {
            var text = ""
            for (index, cell) in row.enumerated() {
                if index == row.count - 1 {
                    text += TextWidth.truncate(cell, to: max(width - TextWidth.of(text), 1))
                } else {
                    text += TextWidth.pad(cell, to: widths[index]) + "  "
                }
            }
            while text.hasSuffix(" ") { text.removeLast() }
            return text
        }
        let header = line(columns)
        var text = SGR.styled(header, SGR.bold, enabled: bold) + "\n"
        for row in cells { text += line(row) + "\n" }
        return text
    }

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
