import FoundationEssentials
import CoreKit

/// The Test Anything Protocol, version 14 (or 13 for older consumers such as Perl's prove
/// 3.44, which refuses a version it does not know; the content is the same): a line per case
/// as it runs, a YAML diagnostic block under each failing one, the plan at the end, and
/// `Bail out!` when the run stops on an error.
public final class TAPReport: TestReporter {
    private let write: (String) -> Void
    private var number = 0

    public init(version: Int = 14, write: @escaping (String) -> Void) {
        self.write = write
        write("TAP version \(version)\n")
    }

    public var listsPasses: Bool { true }

    public func passed(_ identity: CaseIdentity) {
        number += 1
        write("ok \(number) - \(Self.description(identity))\n")
    }

    public func failed(_ failure: TestFailure) {
        number += 1
        var text = "not ok \(number) - \(Self.description(failure.identity))\n  ---\n"
        text += "  at: \(Self.yaml("\(failure.identity.file):\(failure.identity.line)"))\n"
        text += "  condition: \(Self.yaml(failure.condition))\n"
        if !failure.conditionName.isEmpty { text += "  name: \(Self.yaml(failure.conditionName))\n" }
        text += "  text: \(Self.yaml(failure.text))\n"
        text += "  args: [\(failure.arguments.map(Self.yaml).joined(separator: ", "))]\n"
        text += "  expected: \(failure.expected)\n  actual: \(failure.actual)\n"
        text += "  explain: |\n"
        for line in failure.explanation.render().split(separator: "\n") {
            text += "    " + Terminal.sanitizeField(String(line)) + "\n"
        }
        write(text + "  ...\n")
    }

    public func finish(_ summary: TestSummary) {
        if let coverage = summary.coverage {
            for line in coverage.render().split(separator: "\n") { write("# " + Terminal.sanitizeField(String(line)) + "\n") }
        }
        write("1..\(number)\n")
    }

    public func abort(_ error: ToolError) {
        write("Bail out! \(Terminal.sanitizeField(error.message))\n")
    }

    /// One line, with `#` escaped (it would start a directive) and backslashes doubled.
    static func description(_ identity: CaseIdentity) -> String {
        let text = Terminal.sanitizeField("\(identity.file):\(identity.line) \(identity.title)")
        return text.replacing("\\", with: "\\\\").replacing("#", with: "\\#")
    }

    /// A YAML scalar: a JSON string, which YAML reads as a double-quoted scalar; with U+FFFE
    /// and U+FFFF, which JSON may hold but YAML may not (not printable), escaped as well.
    static func yaml(_ value: String) -> String {
        let json = String(decoding: JSONCoding.encode(value), as: UTF8.self)
        guard json.unicodeScalars.contains(where: { $0 == "\u{FFFE}" || $0 == "\u{FFFF}" }) else { return json }
        var result = String.UnicodeScalarView()
        for scalar in json.unicodeScalars {
            switch scalar {
            case "\u{FFFE}": result.append(contentsOf: "\\ufffe".unicodeScalars)
            case "\u{FFFF}": result.append(contentsOf: "\\uffff".unicodeScalars)
            default: result.append(scalar)
            }
        }
        return String(result)
    }
}
