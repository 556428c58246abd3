#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import ToolboxKit

/// A case for a `condtest test` file, written as the user explored (`a` on `condtest ui`'s
/// second screen): the TSV form where it reads back as the same case, JSON Lines otherwise
/// (an argument with a tab or a line break, an id that TSV would take for an expression or a
/// comment). Every line is checked by parsing it back with `CaseLine`, the reader `condtest
/// test` uses.
public enum CaseFileLine {
    public static func line(conditionID: String, arguments: [String], expect: Bool) throws(ToolError) -> String {
        let wanted = TestCase(conditionKey: conditionID, arguments: arguments, expect: expect)
        let tsv = ([conditionID, expect ? "true" : "false"] + arguments).joined(separator: "\t")
        if reads(tsv, as: wanted) { return tsv }
        let json = String(decoding: JSONCoding.encode(JSONCase(condition: conditionID, args: arguments, expect: expect)), as: UTF8.self)
        if reads(json, as: wanted) { return json }
        throw .badData("condition id \(Terminal.quote(conditionID)) cannot be written as a case line")
    }

    /// Appends `line` and a newline to `path` in one write(2), so lines from two screens never
    /// interleave; the file is created if need be.
    public static func append(_ line: String, to path: String) throws(ToolError) {
        let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .io(path: path, reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        let status = LocalFile.writeAll(fd, Array((line + "\n").utf8))
        guard status == 0 else { throw .io(path: path, reason: String(cString: strerror(status))) }
    }

    private static func reads(_ line: String, as wanted: TestCase) -> Bool {
        guard !line.contains("\n"), !line.contains("\r"), !TestCase.isExpression(wanted.conditionKey),
              let parsed = try? CaseLine.parse(line) else { return false }
        return parsed.conditionKey.utf8.elementsEqual(wanted.conditionKey.utf8) && parsed.inlineCondition == nil
            && parsed.expect == wanted.expect && parsed.arguments.count == wanted.arguments.count
            && zip(parsed.arguments, wanted.arguments).allSatisfy { $0.utf8.elementsEqual($1.utf8) }
    }

    private struct JSONCase: Encodable {
        let condition: String
        let args: [String]
        let expect: Bool
    }
}
