import CoreKit

/// JUnit XML, as CI systems (Jenkins, GitLab, GitHub actions) read it: `<testsuites>` with
/// the totals, a `<testsuite>` per case file, a `<testcase>` per case, and a `<failure>` with
/// the explain tree under each failing one. A suite's counts come before its cases, so each
/// file's cases are held (in a `ReportSpool`, not in memory) until the file is done; the
/// document's totals come first too, so every suite is held until the end.
public final class JUnitReport: TestReporter {
    private let write: (String) -> Void
    /// Every finished suite, written out.
    private let done = ReportSpool()
    /// The open suite's cases.
    private let cases = ReportSpool()
    private var suite: (name: String, tests: Int, failures: Int)?
    private var totals = (tests: 0, failures: 0)
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
        if suite?.name != identity.file {
            closeSuite()
            suite = (identity.file, 0, 0)
        }
        suite?.tests += 1
        totals.tests += 1
        if failed {
            suite?.failures += 1
            totals.failures += 1
        }
        cases.append(body)
    }

    /// The open suite, its counts first, moves to `done`.
    private func closeSuite() {
        guard let suite else { return }
        done.append("  <testsuite name=\"\(Self.escaped(suite.name))\" tests=\"\(suite.tests)\" failures=\"\(suite.failures)\" errors=\"0\" skipped=\"0\">\n")
        cases.drain { done.append($0) }
        done.append("  </testsuite>\n")
        self.suite = nil
    }

    public func finish(_ summary: TestSummary) {
        closeSuite()
        let errors = error == nil ? 0 : 1
        write("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            + "<testsuites name=\"condtest\" tests=\"\(summary.passed + summary.failed)\" failures=\"\(summary.failed)\" errors=\"\(errors)\">\n")
        done.drain(into: write)
        var text = ""
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
        finish(TestSummary(passed: totals.tests - totals.failures, failed: totals.failures, coverage: nil, minimum: nil))
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
