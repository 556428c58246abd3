#if canImport(Glibc)
import Glibc
#endif
import CoreKit

/// Where a test run's results go: the text report, TAP, JUnit or JSON.
public protocol TestReporter: AnyObject {
    /// Whether `passed` is called: TAP and JUnit list every case, the text report only failures.
    var listsPasses: Bool { get }
    func passed(_ identity: CaseIdentity)
    func failed(_ failure: TestFailure)
    /// The run ended; `summary` has the totals.
    func finish(_ summary: TestSummary)
    /// The run stopped on `error` (a malformed case file, the server failing).
    func abort(_ error: ToolError)
}
