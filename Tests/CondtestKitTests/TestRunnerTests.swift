import Glibc
import Synchronization
import Testing
@testable import CondtestKit
import ToolboxKit
import TestSupport

/// A reporter that keeps what it was told.
final class RecordingReporter: TestReporter {
    var passes: [CaseIdentity] = []
    var failures: [TestFailure] = []
    var summary: TestSummary?
    var aborted: ToolError?
    var listsPasses: Bool { true }
    func passed(_ identity: CaseIdentity) { passes.append(identity) }
    func failed(_ failure: TestFailure) { failures.append(failure) }
    func finish(_ summary: TestSummary) { self.summary = summary }
    func abort(_ error: ToolError) { aborted = error }
}

/// A case file on disk, opened for reading.
struct CaseFile: ~Copyable {
    let fd: Int32
    init(_ text: String) {
        let path = TemporaryFolders.file("condtest-cases", "cases")
        let fd = open(path, O_RDWR | O_CREAT | O_EXCL, 0o600)
        precondition(fd >= 0)
        unlink(path)
        _ = LocalFile.writeAll(fd, Array(text.utf8))
        lseek(fd, 0, SEEK_SET)
        self.fd = fd
    }
    deinit { close(fd) }
}

/// Server conditions for the runner, counting fetches.
final class FakeServer: Sendable {
    private let fetched = Mutex<[String]>([])
    let records: [String: ConditionRecord]
    init(_ records: [String: String]) throws {
        self.records = try records.mapValues { try ConditionRecord(name: "name of it", id: "x", condition: TextSyntax.parse($0)) }
    }
    /// The ids asked for, in order.
    var fetches: [String] { fetched.withLock { $0 } }
    func fetch(_ id: String) throws(ToolError) -> ConditionRecord {
        fetched.withLock { $0.append(id) }
        guard let record = records[id] else { throw .notFound(what: "condition \(id)") }
        return record
    }
}

@Suite struct TestRunnerTests {
    let server = try! FakeServer(["c1": #"and(ne(arg1, "rollout.io"), containsString(arg1, "ro"))"#, "c2": "eq(arg1, arg2)"])

    func run(_ text: String, coverage: Bool = false, minimum: Double? = nil) async -> (RecordingReporter, ToolError?) {
        let reporter = RecordingReporter()
        let server = self.server
        let runner = TestRunner(coverage: coverage, reporter: reporter) { id throws(ToolError) in try server.fetch(id) }
        let file = CaseFile(text)
        do {
            try await runner.run(fd: file.fd, file: "cases.tsv")
            runner.finish(minimum: minimum)
            return (reporter, nil)
        } catch {
            return (reporter, error)
        }
    }

    @Test func passingAndFailingCasesAreCountedAndEachConditionFetchedOnce() async {
        let (report, error) = await run("""
            # server conditions and an expression
            c1\ttrue\trobot
            c1\tfalse\trollout.io
            c2\ttrue\ta\ta
            c1\ttrue\trollout.io
            =eq(arg1, "x")\ttrue\tx
            {"condition": "c2", "args": ["a", "b"], "expect": true, "name": "differ"}
            c1\tfalse\txyz
            """)
        #expect(error == nil)
        #expect(report.summary == TestSummary(passed: 5, failed: 2, coverage: nil, minimum: nil))
        #expect(server.fetches == ["c1", "c2"])
        #expect(report.passes.map(\.line) == [2, 3, 4, 6, 8])
        #expect(report.passes[0].title == #"c1 "robot""#)
        #expect(report.failures.map(\.identity.line) == [5, 7])
        let first = report.failures[0]
        #expect(first.condition == "c1" && first.conditionName == "name of it")
        #expect(first.text == #"and(ne(arg1, "rollout.io"), containsString(arg1, "ro"))"#)
        #expect(first.arguments == ["rollout.io"] && first.expected && !first.actual)
        #expect(first.explanation.render() == """
            and: false
              ne(arg1 = "rollout.io", "rollout.io"): false
              containsString(arg1, "ro"): skipped

            """)
        #expect(report.failures[1].identity.title == "differ")
    }

    @Test func theArgumentCountMustMatchTheCondition() async {
        let (_, few) = await run("c2\ttrue\ta\n")
        #expect(few == .badData("cases.tsv:1:9: the condition takes 2 arguments, got 1"))
        let (_, many) = await run("c1\ttrue\ta\tb\n")
        #expect(many == .badData("cases.tsv:1:9: the condition takes 1 argument, got 2"))
        // No arguments: the column just past the end of the line (issue 29: it was one further).
        let (_, none) = await run("c1\ttrue\n")
        #expect(none == .badData("cases.tsv:1:8: the condition takes 1 argument, got 0"))
        let (_, json) = await run(#"{"condition": "c1", "args": [], "expect": true}"# + "\n")
        #expect(json == .badData("cases.tsv:1:29: the condition takes 1 argument, got 0"))
    }

    @Test func errorsStopTheRunWithWhereTheyAre() async {
        let (report, unknown) = await run("c1\ttrue\trobot\nc9\ttrue\tx\n")
        #expect(unknown == .notFound(what: "cases.tsv:2: condition c9"))
        #expect(report.aborted == unknown)
        #expect(report.passes.count == 1)
        let (_, syntax) = await run("=eq(arg1 \"x\")\ttrue\tx\n")
        #expect(syntax == .badData(#"cases.tsv:1:10: expected "," or ")", found "\"""#))
        let (_, crlf) = await run("c1\ttrue\trobot\r\nc1\tfalse\trollout.io\r\n")
        #expect(crlf == nil)
        let (_, nul) = await run("c1\ttrue\ta\u{0}b\n")
        #expect(nul == .badData("cases.tsv:1:9: NUL byte in the arguments"))
        let (_, utf8) = await run("=eq(arg1, \"\u{E9}\")\ttrue\t\u{E9}\n")
        #expect(utf8 == nil)
        // Columns count bytes, after a non-ASCII character as before it (issue 29: scalars were counted).
        let (_, wide) = await run("=eq(\"\u{E9}\" arg1)\ttrue\tx\n")
        #expect(wide == .badData(#"cases.tsv:1:10: expected "," or ")", found "a""#))
    }

    @Test func coverageFindsTheNodesNeverTrueOrNeverFalse() async throws {
        let (report, error) = await run("c1\ttrue\trobot\nc1\tfalse\trollout.io\n", coverage: true, minimum: 90)
        #expect(error == nil)
        let coverage = try #require(report.summary?.coverage)
        // and: true and false; ne: true and false; containsString: true only.
        #expect(coverage.covered == 5 && coverage.total == 6)
        let condition = try #require(coverage.conditions.first)
        #expect(condition.uncovered == [CoverageReport.Node(column: 29, text: #"containsString(arg1, "ro")"#, missing: ["false"])])
        #expect(report.summary?.belowMinimum == true)
        #expect(CoverageReport.formatted(coverage.percent) == "83.3")
    }

    @Test func coverageOfAHandMadeTableWithShortCircuits() async throws {
        // ("a", _): or is true at its first operand, and is skipped. ("q", _): eq(arg1, "b")
        // is false, so and stops there and not(…) is never evaluated.
        let expression = #"=or(eq(arg1, "a"), and(eq(arg1, "b"), not(eq(arg2, "c"))))"#
        let (report, _) = await run("""
            \(expression)\ttrue\ta\tz
            \(expression)\tfalse\tq\tz
            """, coverage: true)
        let condition = try #require(report.summary?.coverage?.conditions.first)
        #expect(condition.text == String(expression.dropFirst()))
        #expect(condition.uncovered == [
            .init(column: 19, text: #"and(eq(arg1, "b"), not(eq(arg2, "c")))"#, missing: ["true"]),
            .init(column: 23, text: #"eq(arg1, "b")"#, missing: ["true"]),
            .init(column: 38, text: #"not(eq(arg2, "c"))"#, missing: ["true", "false"]),
            .init(column: 42, text: #"eq(arg2, "c")"#, missing: ["true", "false"]),
        ])
        #expect(condition.covered == 6 && condition.total == 12)
        #expect(report.summary?.coverage?.render() == """
            coverage: 6 of 12 node outcomes (50.0%)
              or(eq(arg1, "a"), and(eq(arg1, "b"), not(eq(arg2, "c")))): 6 of 12 outcomes
                col 19  and(eq(arg1, "b"), not(eq(arg2, "c")))  never true
                col 23  eq(arg1, "b")  never true
                col 38  not(eq(arg2, "c"))  never evaluated
                col 42  eq(arg2, "c")  never evaluated

            """)
    }

    @Test func aFullyCoveredTableReachesAHundredPercent() async throws {
        let (report, _) = await run("=eq(arg1, \"x\")\ttrue\tx\n=eq(arg1, \"x\")\tfalse\ty\n", coverage: true, minimum: 100)
        #expect(report.summary?.coverage?.percent == 100)
        #expect(report.summary?.belowMinimum == false)
    }
}
