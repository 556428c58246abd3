import CoreKit

/// `condtest test --json`: one JSON document at the end, `{"coverage": {…}, "failed",
/// "failures": […], "passed"}` (`coverage` null unless asked for), keys sorted as every
/// `--json` document. Failures are encoded as they come and held in a `ReportSpool`, not in
/// memory. A run stopped by an error writes no document: the error is on stderr and in the
/// exit status.
public final class JSONTestReport: TestReporter {
    private let write: (String) -> Void
    private let failures = ReportSpool()

    public init(write: @escaping (String) -> Void) { self.write = write }

    public var listsPasses: Bool { false }

    public func passed(_ identity: CaseIdentity) {}

    public func failed(_ failure: TestFailure) {
        failures.append((failures.isEmpty ? "\n    " : ",\n    ") + Self.encoded(failure, indent: 4))
    }

    public func finish(_ summary: TestSummary) {
        let coverage = summary.coverage.map { Self.encoded($0, indent: 2) } ?? "null"
        write("{\n  \"coverage\" : \(coverage),\n  \"failed\" : \(summary.failed),\n  \"failures\" : [")
        let any = !failures.isEmpty
        failures.drain(into: write)
        write((any ? "\n  ]" : "]") + ",\n  \"passed\" : \(summary.passed)\n}\n")
    }

    public func abort(_ error: ToolError) {}

    /// `value` as pretty JSON, its lines after the first indented by `indent` spaces (a JSON
    /// string holds no raw newline, so every newline is between tokens).
    static func encoded<T: Encodable>(_ value: T, indent: Int) -> String {
        String(decoding: JSONCoding.encode(value, pretty: true), as: UTF8.self)
            .replacing("\n", with: "\n" + String(repeating: " ", count: indent))
    }
}
