import ToolboxKit

/// JUnit XML, as CI systems (Jenkins, GitLab, GitHub actions) read it: `<testsuites>` with
/// the totals, a `<testsuite>` per case file, a `<testcase>` per case, and a `<failure>` with
/// the explain tree under each failing one. A suite's counts come before its cases, so each
/// file's cases are held until the file is done; the document is written at the end.
public final class JUnitReport: TestReporter {
    private let write: (String) -> Void
    private var suites: [(name: String, tests: Int, failures: Int, body: String)] = []
    private var error: ToolError?

    public init(write: @escaping (String) -> Void) { self.write = write }

    public var listsPasses: Bool { true }

    public func passed(_ identity: CaseIdentity) {
        add(identity, failed: false, body: "    <testcase \(Self.attributes(identity))/>\n")
    }

    public func failed(_ failure: TestFailure) {
        var details = failure.detailLines.joined(separator: "\n") + "\n" + failure.explanation.render()
        details = Terminal.sanitize(details)
        let message = "expected \(failure.expected), got \(failure.actual)"
        let body = "    <testcase \(Self.attributes(failure.identity))>\n"
            + "      <failure message=\"\(message)\" type=\"assertion\">\(Self.escaped(details, inAttribute: false))</failure>\n"
            + "    </testcase>\n"
        add(failure.identity, failed: true, body: body)
    }

    private func add(_ identity: CaseIdentity, failed: Bool, body: String) {
        if suites.last?.name != identity.file { suites.append((identity.file, 0, 0, "")) }
        suites[suites.count - 1].tests += 1
        if failed { suites[suites.count - 1].failures += 1 }
        suites[suites.count - 1].body += body
    }

    public func finish(_ summary: TestSummary) {
        var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        let errors = error == nil ? 0 : 1
        text += "<testsuites name=\"condtest\" tests=\"\(summary.passed + summary.failed)\" failures=\"\(summary.failed)\" errors=\"\(errors)\">\n"
        for suite in suites {
            text += "  <testsuite name=\"\(Self.escaped(suite.name))\" tests=\"\(suite.tests)\" failures=\"\(suite.failures)\" errors=\"0\" skipped=\"0\">\n"
            text += suite.body
            text += "  </testsuite>\n"
        }
        if let error {
            // The case that could not be read: an error of its own suite, so CI shows it.
            text += "  <testsuite name=\"condtest\" tests=\"1\" failures=\"0\" errors=\"1\" skipped=\"0\">\n"
            text += "    <testcase name=\"reading the cases\" classname=\"condtest\">\n"
            text += "      <error message=\"\(Self.escaped(error.message))\" type=\"error\"/>\n    </testcase>\n  </testsuite>\n"
        }
        write(text + "</testsuites>\n")
    }

    /// The run stopped: the document is still written, with the error as a suite of its own.
    public func abort(_ error: ToolError) {
        self.error = error
        finish(TestSummary(passed: suites.reduce(0) { $0 + $1.tests - $1.failures },
                           failed: suites.reduce(0) { $0 + $1.failures }, coverage: nil, minimum: nil))
    }

    static func attributes(_ identity: CaseIdentity) -> String {
        "name=\"\(escaped("line \(identity.line): \(identity.title)"))\" classname=\"\(escaped(identity.file))\""
    }

    /// Text for an attribute (tabs and newlines as references, which attribute values
    /// would otherwise turn into spaces) or an element: markup characters as entities, and what XML 1.0
    /// cannot hold at all (controls other than tab, newline and CR; U+FFFE, U+FFFF) left out.
    static func escaped(_ text: String, inAttribute: Bool = true) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in Terminal.sanitize(text).unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            case "\t" where inAttribute: result += "&#9;"
            case "\n" where inAttribute: result += "&#10;"
            case "\u{FFFE}", "\u{FFFF}": continue
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
