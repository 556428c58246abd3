/// Exponential backoff with full jitter (the AWS architecture blog's "Full Jitter"):
/// before retry n (0-based) wait a uniformly random time in 0…min(cap, base·2ⁿ).
/// Randomness and sleeping are injected so tests are exact and never wait.
public struct RetryPolicy: Sendable {
    public var retries: Int
    public var baseDelay: Double
    public var maxDelay: Double

    public init(retries: Int, baseDelay: Double = 0.25, maxDelay: Double = 8) {
        self.retries = max(0, retries)
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
    }

    /// The upper bound of the wait before retry `attempt` (0-based).
    public func ceiling(forRetry attempt: Int) -> Double {
        let exponent = Double(min(attempt, 30))
        return min(maxDelay, baseDelay * pow2(exponent))
    }

    /// The wait before retry `attempt`: `unit` is a uniform random number in 0..<1.
    public func delay(forRetry attempt: Int, unit: Double) -> Double {
        ceiling(forRetry: attempt) * min(max(unit, 0), 1)
    }

    /// Runs `operation` until it succeeds, fails with an error `isRetryable` rejects, or the
    /// retries are spent; then rethrows the last error. `operation` gets the attempt number.
    public func run<T: Sendable>(
        isRetryable: (any Error) -> Bool,
        random: () -> Double = { Double.random(in: 0..<1) },
        sleep: (Double) async throws -> Void = RetryPolicy.taskSleep,
        onRetry: (Int, any Error, Double) -> Void = { _, _, _ in },
        operation: (Int) async throws -> T
    ) async throws -> T {
        var attempt = 0
        while true {
            do {
                return try await operation(attempt)
            } catch {
                guard attempt < retries, isRetryable(error), !Task.isCancelled else { throw error }
                let wait = delay(forRetry: attempt, unit: random())
                onRetry(attempt + 1, error, wait)
                try await sleep(wait)
                attempt += 1
            }
        }
    }

    @Sendable public static func taskSleep(_ seconds: Double) async throws {
        try await Task.sleep(for: .milliseconds(Int64(seconds * 1000)))
    }

    private func pow2(_ exponent: Double) -> Double {
        var result = 1.0
        for _ in 0..<Int(exponent) { result *= 2 }
        return result
    }
}
