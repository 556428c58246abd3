import CoreKit

/// The test runner's report for a person or a log: a block per failing case (where, the
/// condition, arguments, expected and actual, the explain tree), coverage when asked for,
/// and `N passed, M failed` alone on the last line. Every line passes `Terminal.sanitize`.
public final class TextTestReport: TestReporter {
    private let write: (String) -> Void
    private let paint: (String, Bool?) -> String

    /// `paint` colours a result word (`FAIL`, `true`, `false`, `skipped`) on a terminal.
    public init(paint: @escaping (String, Bool?) -> String = { word, _ in word }, write: @escaping (String) -> Void) {
        self.write = write
        self.paint = paint
    }

    public var listsPasses: Bool { false }

    public func passed(_ identity: CaseIdentity) {}

    public func failed(_ failure: TestFailure) {
        var text = "\(paint("FAIL", false)) \(failure.identity.file):\(failure.identity.line)"
        if let name = failure.name { text += " " + Terminal.sanitizeField(name) }
        text += "\n"
        for line in failure.detailLines { text += "  " + Terminal.sanitizeField(line) + "\n" }
        for line in failure.explanation.render(paint: paint).split(separator: "\n") {
            text += "    " + Terminal.sanitizeField(String(line)) + "\n"
        }
        write(text + "\n")
    }

    public func finish(_ summary: TestSummary) {
        if let coverage = summary.coverage { write(Terminal.sanitize(coverage.render())) }
        write(summary.line + "\n")
    }

    public func abort(_ error: ToolError) {}
}
