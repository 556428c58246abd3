import Synchronization
import ToolboxKit

/// Decides, from one seeded generator shared by every API, how long each request waits and
/// whether it fails. Requests draw in arrival order, so the same seed and the same sequence
/// of requests give the same faults.
public final class FaultInjector: Sendable {
    public struct Decision: Sendable, Equatable {
        public let delayMilliseconds: Int
        public let fails: Bool
    }

    private let generator: Mutex<SeededGenerator>

    public init(seed: UInt64) {
        generator = Mutex(SeededGenerator(seed: seed))
    }

    /// Always draws two numbers, whatever the profile, so that changing one API's profile
    /// does not shift the faults another API sees.
    public func decide(_ profile: FaultProfile) -> Decision {
        let (delayUnit, failUnit) = generator.withLock { ($0.unit(), $0.unit()) }
        let span = Double(profile.latency.maximum - profile.latency.minimum)
        let delay = profile.latency.minimum + Int((delayUnit * (span + 1)).rounded(.down))
        return Decision(delayMilliseconds: min(delay, profile.latency.maximum),
                        fails: failUnit < profile.failureRate)
    }

    /// A draw in 0..<1 for API-specific faults (a broken event stream, say).
    public func unit() -> Double {
        generator.withLock { $0.unit() }
    }
}
