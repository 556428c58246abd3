#if canImport(Glibc)
import Glibc
#endif
import CoreKit

/// `condtest test` from its options to its verdict: opens each case file (- is stdin), runs
/// every case through one `TestRunner`, writes the chosen report to standard output, and
/// returns the totals with what the tool must say on standard error.
public struct TestSession {
    public enum Report: Sendable, Equatable {
        /// Failures only, with the explain tree; results coloured when `colour`.
        case text(colour: Bool)
        /// TAP, version 14 or 13.
        case tap(version: Int)
        case junit
        case json
    }

    public let files: [String]
    public let report: Report
    /// Node coverage is gathered (`--coverage`, or implied by a minimum).
    public let coverage: Bool
    /// `--coverage-min`, in percent.
    public let minimum: Double?
    /// Nothing on standard output (`--quiet`): the exit status says it all.
    public let quiet: Bool

    public init(files: [String], report: Report, coverage: Bool, minimum: Double?, quiet: Bool) {
        self.files = files
        self.report = report
        self.coverage = coverage || minimum != nil
        self.minimum = minimum
        self.quiet = quiet
    }

    public struct Verdict: Sendable {
        public let summary: TestSummary
        /// Lines for standard error, without the tool's name.
        public let messages: [String]
        /// Every case passed and coverage reached the minimum: exit status 0.
        public var passed: Bool { summary.failed == 0 && !summary.belowMinimum }
    }

    /// Runs the session; `fetch` gives a server condition by id. A case file that cannot be
    /// read, a malformed case or a server error ends it with that error, the report so far
    /// written.
    public func run(fetch: @escaping TestRunner.Fetch) async throws(ToolError) -> Verdict {
        let output = ReportOutput(quiet: quiet)
        defer { output.flush() }
        let runner = TestRunner(coverage: coverage, reporter: reporter(output), fetch: fetch)
        for file in files {
            let fd = try Self.open(file)
            defer { if fd != 0 { close(fd) } }
            try await runner.run(fd: fd, file: file == "-" ? "stdin" : file)
        }
        let summary = runner.finish(minimum: minimum)
        var messages: [String] = []
        if summary.passed + summary.failed == 0 {
            messages.append("warning: no cases in \(files.joined(separator: ", "))")
        }
        if summary.belowMinimum, let coverage = summary.coverage, let minimum {
            messages.append("coverage \(CoverageReport.formatted(coverage.percent))% is below --coverage-min \(CoverageReport.formatted(minimum))")
        }
        return Verdict(summary: summary, messages: messages)
    }

    private func reporter(_ output: ReportOutput) -> any TestReporter {
        let write = output.write
        switch report {
        case .text(let colour):
            return TextTestReport(paint: { word, result in colour ? SGR.result(word, result) : word }, write: write)
        case .tap(let version): return TAPReport(version: version, write: write)
        case .junit: return JUnitReport(write: write)
        case .json: return JSONTestReport(write: write)
        }
    }

    /// The case file's descriptor (0 for -); a file that does not exist or may not be read is 66.
    static func open(_ path: String) throws(ToolError) -> Int32 {
        if path == "-" { return 0 }
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            let reason = String(cString: strerror(errno))
            if errno == ENOENT || errno == EACCES { throw .missing("\(path): \(reason)") }
            throw .io(path: path, reason: reason)
        }
        return fd
    }
}

/// Standard output for the reporters, which write through a closure: line by line on a
/// terminal, buffered into a pipe.
private final class ReportOutput {
    private var output = StandardOutput(lineBuffered: Terminal.isTTY(Terminal.standardOutput))
    private let quiet: Bool

    init(quiet: Bool) {
        self.quiet = quiet
    }

    func write(_ text: String) {
        if quiet { return }
        output.write(text)
        if output.lineBuffered { output.flush() }
    }

    func flush() { output.flush() }
}
