/// Comma-separated values as RFC 4180 writes them and spreadsheets save them: fields quoted
/// with `"` when they hold a comma, a quote or a line break (a quote doubled inside), records
/// ending in LF or CRLF, an optional UTF-8 byte order mark at the start.
public enum CSV {
    /// One record with the line and column where each field starts (1-based, columns in
    /// Unicode scalars), for messages. A quoted field may hold line breaks, so a field after it
    /// starts on a later line than its record.
    public struct Record: Sendable, Equatable {
        public var fields: [String]
        public var line: Int
        public var columns: [Int]
        /// The line where each field starts.
        public var lines: [Int] = []
    }

    public struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        public let line: Int
        public let column: Int
        public let problem: String
        public var description: String { "line \(line), column \(column): \(problem)" }
    }

    /// Every record of `text`; a blank last line is not a record.
    public static func parse(_ text: String) throws(ParseError) -> [Record] {
        var scalars = Array(text.unicodeScalars)
        if scalars.first == "\u{FEFF}" { scalars.removeFirst() }
        var records: [Record] = []
        var fields: [String] = []
        var columns: [Int] = []
        var lines: [Int] = []
        var field = String.UnicodeScalarView()
        var line = 1, column = 1
        var recordLine = 1
        var fieldColumn = 1
        var fieldLine = 1
        var quoted = false, inQuotes = false, afterQuote = false
        var index = 0
        func endField() {
            fields.append(String(field))
            columns.append(fieldColumn)
            lines.append(fieldLine)
            field = String.UnicodeScalarView()
            quoted = false
            afterQuote = false
        }
        func endRecord() {
            endField()
            records.append(Record(fields: fields, line: recordLine, columns: columns, lines: lines))
            fields = []
            columns = []
            lines = []
        }
        while index < scalars.count {
            let scalar = scalars[index]
            index += 1
            if inQuotes {
                if scalar == "\"" {
                    if index < scalars.count && scalars[index] == "\"" {
                        field.append("\"")
                        index += 1
                        column += 2
                        continue
                    }
                    inQuotes = false
                    afterQuote = true
                } else {
                    field.append(scalar)
                }
                if scalar == "\n" { line += 1; column = 1 } else { column += 1 }
                continue
            }
            switch scalar {
            case ",":
                endField()
                column += 1
                fieldColumn = column
                fieldLine = line
            case "\r" where index < scalars.count && scalars[index] == "\n":
                break  // the LF that follows ends the record
            case "\n":
                endRecord()
                line += 1
                column = 1
                recordLine = line
                fieldColumn = 1
                fieldLine = line
            case "\"" where field.isEmpty && !quoted:
                quoted = true
                inQuotes = true
                column += 1
            default:
                if afterQuote {
                    throw ParseError(line: line, column: column, problem: "text after a closing quote (a quote inside a quoted field is written \"\")")
                }
                if scalar == "\"" {
                    throw ParseError(line: line, column: column, problem: "a quote inside an unquoted field (quote the whole field)")
                }
                field.append(scalar)
                column += 1
            }
        }
        if inQuotes { throw ParseError(line: line, column: column, problem: "a quoted field is not closed") }
        if !field.isEmpty || !fields.isEmpty || quoted { endRecord() }
        return records
    }

    /// One record as a line, without its line ending.
    public static func format(_ fields: [String]) -> String {
        fields.map { field in
            // A field starting with a byte order mark is quoted too: first in a file, the mark
            // would be read as the file's own and dropped.
            let needsQuotes = field.unicodeScalars.contains { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }
                || field.unicodeScalars.first == "\u{FEFF}"
            return needsQuotes ? "\"" + field.replacingQuotes() + "\"" : field
        }.joined(separator: ",")
    }
}

private extension String {
    /// Each `"` doubled, by scalar: a quote followed by a combining mark is one `Character`,
    /// but still a quote to a CSV reader.
    func replacingQuotes() -> String {
        var result = String.UnicodeScalarView()
        for scalar in unicodeScalars {
            if scalar == "\"" { result.append(scalar) }
            result.append(scalar)
        }
        return String(result)
    }
}
