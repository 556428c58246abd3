import ToolboxKit

/// How a passcode run ended, and the exit status each ending has. `--once` makes the screen
/// and script mode a gate (as pinentry is): 0 only for an unlock.
public enum GateOutcome: Sendable, Equatable {
    /// The right code was entered (`--once`).
    case unlocked
    /// `q` without `--once`, or the script's input ended: the run is simply over.
    case quit
    /// `--once`: `q`, Esc on an empty code, `cancel` on an empty code, or the input ended
    /// before an unlock.
    case cancelled
    /// Ctrl-C or a signal.
    case interrupted
    /// `--idle-timeout`: no input for that long.
    case timedOut
    /// More than `--retries` calls in a row failed (`--once` and script mode).
    case gaveUp(ToolError)

    /// 0 unlocked or quit, 1 cancelled, 130 interrupted, 124 timed out (as timeout(1)), the
    /// server's error's own status when giving up.
    public var exitStatus: Int32 {
        switch self {
        case .unlocked, .quit: return 0
        case .cancelled: return 1
        case .interrupted: return ExitStatus.interrupted.rawValue
        case .timedOut: return 124
        case .gaveUp(let error): return error.exitStatus.rawValue
        }
    }
}

/// What `--once` and `--idle-timeout` ask of a run.
public struct GateOptions: Sendable, Equatable {
    /// End at the first unlock, and treat quitting as a refusal.
    public var once: Bool
    /// End after this many seconds without input.
    public var idleTimeout: Double?
    /// Give up after more than this many failed calls in a row (`--retries`); the screen
    /// without `--once` never gives up.
    public var maxFailures: Int

    public init(once: Bool = false, idleTimeout: Double? = nil, maxFailures: Int = .max) {
        self.once = once
        self.idleTimeout = idleTimeout
        self.maxFailures = maxFailures
    }
}
