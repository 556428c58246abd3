import ScreenKit
import ToolboxKit

/// The passcode keypad as a ScreenKit program: what the screen shows besides the session's
/// machine (the selected button, the spinner, the unlocked/rejected feedback) and what each
/// key does. The session itself stays the one owner of the passcode state: keys go to it as
/// commands, in order, and its snapshots come back as messages.
public struct PasscodeScreen: ScreenProgram {
    public enum Command: ScreenCommand, Equatable {
        /// Forwards the session's snapshots to the screen, for as long as it runs.
        case listen
        case send(PasscodeMachine.Event)
        /// Esc or the cancel button. A gate's cancel on an empty code refuses; the session's
        /// own state decides, not the screen's copy, which may not yet have seen the snapshot
        /// of a key typed just before (Esc Esc typed fast).
        case cancel
        case feedbackTimer(token: Int)
        case idleTimer(token: Int)

        public var policy: CommandPolicy {
            switch self {
            case .listen: .latest("listen")
            case .send, .cancel: .serial("session")
            case .feedbackTimer: .latest("feedback")
            case .idleTimer: .latest("idle")
            }
        }
    }

    public enum Message: Sendable, Equatable {
        case snapshot(PasscodeSession.Snapshot)
        case feedbackOver(token: Int)
        case idle(token: Int)
        case refused
    }

    public let gate: GateOptions
    public internal(set) var machine = PasscodeMachine()
    /// The last failure is one another try cannot mend (refused credentials): no retry comes by itself.
    var failureIsPermanent = false
    /// That failure, while it stands: quitting then ends as script mode gives up, with the
    /// error's status (77 for refused credentials), never 0 (issue 47).
    var permanentError: ToolError?
    /// The selected button: the bottom digit, under the thumb, at first.
    public internal(set) var selected = 10
    public internal(set) var feedback: (status: KeypadView.Status, token: Int)?
    public internal(set) var outcome: GateOutcome?
    var token = 0
    var idleToken = 0
    /// The size, the spinner's tick and the help overlay, as every screen keeps them. The
    /// keypad lays out its own rows (it has no title bar or status line), and its hint row
    /// is the chrome's footer.
    public internal(set) var chrome = Chrome()
    public var help: HelpOverlay? { chrome.help }

    public init(gate: GateOptions = GateOptions()) { self.gate = gate }

    public var isBusy: Bool {
        if case .loading = machine.phase { return true }
        return false
    }

    public mutating func start() -> [Command] { [.listen, .send(.start)] + restartIdleTimer() }

    public mutating func tick() { chrome.advance() }

    public mutating func resized(rows: Int, columns: Int) -> [Command] {
        chrome.resize(rows: rows, columns: columns)
        return []
    }
}
