import FoundationEssentials
import ToolboxKit

/// `devsync import`: a CSV of `id,installationDate` (other columns, as `export` writes them,
/// are ignored), checked in full before anything is recorded. A date is ISO 8601 or one of
/// the local forms `install --at` takes; an empty one means "not installed".
public enum DeviceImport {
    public struct Row: Sendable, Equatable {
        public let id: String
        public let installationDate: Date?
    }

    /// One bad row: where, and why.
    public struct Problem: Sendable, Equatable, CustomStringConvertible {
        public let line: Int
        public let column: Int
        public let reason: String
        public var description: String { "line \(line), column \(column): \(reason)" }
    }

    /// Every problem with a file, not just the first.
    public struct Problems: Error, Sendable, Equatable {
        public let all: [Problem]
    }

    /// The rows of `text`, or every problem with it. Ids are compared byte by byte, never as
    /// Swift strings (which take `é` and `e` + U+0301 for one); an id is taken as written when
    /// a device has exactly that id (spaces around it included), else with spaces trimmed.
    /// A leading `'`, which `export` puts before a cell a spreadsheet would run, is taken off.
    public static func check(_ text: String, knownIDs: some Sequence<String>) -> Result<[Row], Problems> {
        let known = Set(knownIDs.map { Array($0.utf8) })
        let records: [CSV.Record]
        do { records = try CSV.parse(text) } catch {
            return .failure(Problems(all: [Problem(line: error.line, column: error.column, reason: error.problem)]))
        }
        guard let header = records.first else {
            return .failure(Problems(all: [Problem(line: 1, column: 1, reason: "empty file: the first line must name the columns id and installationDate")]))
        }
        let names = header.fields.map { $0.trimmingSpaces() }
        guard let idColumn = names.firstIndex(of: "id"), let dateColumn = names.firstIndex(of: "installationDate") else {
            return .failure(Problems(all: [Problem(line: header.line, column: 1, reason: "the header must name the columns id and installationDate")]))
        }
        var rows: [Row] = []
        var problems: [Problem] = []
        var seen: [[UInt8]: Int] = [:]
        for record in records.dropFirst() {
            if record.fields.count == 1 && record.fields[0].isEmpty { continue }  // a blank line
            guard record.fields.count == names.count else {
                problems.append(Problem(line: record.line, column: 1,
                                        reason: "\(record.fields.count) fields where the header has \(names.count)"))
                continue
            }
            let written = DeviceExport.imported(record.fields[idColumn])
            let id = known.contains(Array(written.utf8)) ? written : written.trimmingSpaces()
            let key = Array(id.utf8)
            let dateText = DeviceExport.imported(record.fields[dateColumn]).trimmingSpaces()
            if id.isEmpty {
                problems.append(Problem(line: record.lines[idColumn], column: record.columns[idColumn], reason: "no device id"))
            } else if !known.contains(key) {
                problems.append(Problem(line: record.lines[idColumn], column: record.columns[idColumn],
                                        reason: "unknown device \(Terminal.quote(id)); devsync pull refreshes the list"))
            } else if let first = seen[key] {
                problems.append(Problem(line: record.lines[idColumn], column: record.columns[idColumn],
                                        reason: "duplicate id \(Terminal.quote(id)) (first on line \(first))"))
            }
            var date: Date?
            if !dateText.isEmpty {
                do { date = try DateInput.parse(dateText) } catch {
                    problems.append(Problem(line: record.lines[dateColumn], column: record.columns[dateColumn], reason: error.message))
                }
            }
            if !id.isEmpty && seen[key] == nil { seen[key] = record.line }
            rows.append(Row(id: id, installationDate: date))
        }
        return problems.isEmpty ? .success(rows) : .failure(Problems(all: problems))
    }
}
