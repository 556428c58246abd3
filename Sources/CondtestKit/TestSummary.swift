/// The totals of a run, and coverage when it was asked for.
public struct TestSummary: Sendable, Equatable {
    public let passed: Int
    public let failed: Int
    public let coverage: CoverageReport?
    /// `--coverage-min`, in percent.
    public let minimum: Double?

    public init(passed: Int, failed: Int, coverage: CoverageReport?, minimum: Double?) {
        self.passed = passed
        self.failed = failed
        self.coverage = coverage
        self.minimum = minimum
    }

    public var belowMinimum: Bool {
        guard let coverage, let minimum else { return false }
        return coverage.percent < minimum
    }

    /// `N passed, M failed`: the last line of the text report.
    public var line: String { "\(passed) passed, \(failed) failed" }
}
