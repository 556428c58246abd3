/// The delays and failures an API shows: its original mock server's defaults, overridden
/// for every API by mockd's `--latency` and `--failure-rate`.
public struct FaultProfile: Sendable, Equatable {
    public var latency: LatencyRange
    public var failureRate: Double

    public init(latency: LatencyRange = .zero, failureRate: Double = 0) {
        self.latency = latency
        self.failureRate = failureRate
    }

    public static let none = FaultProfile()

    /// This profile with the command line's overrides applied.
    public func overridden(latency: LatencyRange?, failureRate: Double?) -> FaultProfile {
        FaultProfile(latency: latency ?? self.latency, failureRate: failureRate ?? self.failureRate)
    }
}
