import ToolboxKit

/// `condtest test --json`: one JSON document at the end, `{"passed", "failed", "failures":
/// […], "coverage": {…}}` (`coverage` null unless asked for). A run stopped by an error writes
/// no document: the error is on stderr and in the exit status.
public final class JSONTestReport: TestReporter {
    private let write: (String) -> Void
    private var failures: [TestFailure] = []

    public init(write: @escaping (String) -> Void) { self.write = write }

    public var listsPasses: Bool { false }

    public func passed(_ identity: CaseIdentity) {}

    public func failed(_ failure: TestFailure) { failures.append(failure) }

    struct Document: Encodable {
        let passed: Int
        let failed: Int
        let failures: [TestFailure]
        let coverage: CoverageReport?
    }

    public func finish(_ summary: TestSummary) {
        emit(Document(passed: summary.passed, failed: summary.failed, failures: failures, coverage: summary.coverage))
    }

    public func abort(_ error: ToolError) {}

    private func emit(_ document: Document) {
        write(String(decoding: JSONCoding.encode(document, pretty: true), as: UTF8.self) + "\n")
    }
}
