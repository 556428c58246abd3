import Synchronization

/// Lets progress through at most every 50 ms: a download reports each piece, the screen
/// needs a frame now and then. Returns the seconds since the gate was made when due.
final class ProgressGate: Sendable {
    private let started = ContinuousClock.now
    private let last = Mutex<ContinuousClock.Instant?>(nil)

    func due() -> Double? {
        let now = ContinuousClock.now
        let open = last.withLock { last -> Bool in
            if let previous = last, now - previous < .milliseconds(50) { return false }
            last = now
            return true
        }
        guard open else { return nil }
        let (seconds, attoseconds) = (now - started).components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
