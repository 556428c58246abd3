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

    enum Action: Sendable, Equatable { case digit, delete, cancel, press, move, help, quit }

    static let keys = KeyTable<Action>([
        .init((0...9).map { .character(Character(String($0))) }, "type the digit", .digit, hint: "digit", shownAs: "0–9"),
        .init([.up, .down, .left, .right], "choose a button (or click one)", .move, shownAs: "←↑→↓"),
        .init([.enter], "press the chosen button", .press, hint: "press"),
        .init([.backspace, .delete], "delete the last digit", .delete, hint: "delete"),
        .init([.escape], "cancel the code typed (a gate with none typed: cancel the gate)", .cancel, hint: "cancel"),
        .init([.character("q"), .character("Q"), .control("d")], "quit", .quit, hint: "quit"),
        .init([.character("?"), .function(1)], "this help", .help, hint: "help"),
    ])

    public let gate: GateOptions
    public private(set) var machine = PasscodeMachine()
    /// The last failure is one another try cannot mend (refused credentials): no retry comes by itself.
    private var failureIsPermanent = false
    /// The selected button: the bottom digit, under the thumb, at first.
    public private(set) var selected = 10
    public private(set) var feedback: (status: KeypadView.Status, token: Int)?
    public private(set) var outcome: GateOutcome?
    private var frame = 0
    private var token = 0
    private var idleToken = 0
    private var size = (rows: 24, columns: 80)
    public private(set) var help: HelpOverlay?

    public init(gate: GateOptions = GateOptions()) { self.gate = gate }

    public var isBusy: Bool {
        if case .loading = machine.phase { return true }
        return false
    }

    public mutating func start() -> [Command] { [.listen, .send(.start)] + restartIdleTimer() }

    public mutating func tick() { frame += 1 }

    public mutating func resized(rows: Int, columns: Int) -> [Command] {
        size = (rows, columns)
        help?.layout(rows: rows, columns: columns)
        return []
    }

    public mutating func handle(_ key: KeyPress) -> [Command] {
        let idle = restartIdleTimer()
        if var overlay = help {
            help = overlay.handle(key) ? overlay : nil
            return idle
        }
        if case .click(let row, let column) = key {
            guard let slot = KeypadView(width: size.columns, height: size.rows).button(row: row, column: column) else { return idle }
            selected = slot
            return idle + press(slot)
        }
        switch Self.keys.action(for: key) {
        case .quit?: outcome = gate.once ? .cancelled : .quit
        case .digit?:
            guard case .character(let character) = key, let digit = Int(String(character)) else { return idle }
            return idle + [.send(.digit(digit))]
        case .delete?: return idle + [.send(.delete)]
        case .cancel?: return idle + [.cancel]
        case .press?: return idle + press(selected)
        case .move?: selected = KeypadView.move(selected, key)
        case .help?:
            var overlay = HelpOverlay(title: "passcode: keys", table: Self.keys)
            overlay.layout(rows: size.rows, columns: size.columns)
            help = overlay
        case nil: break
        }
        return idle
    }

    public mutating func receive(_ message: Message) -> [Command] {
        switch message {
        case .snapshot(let snapshot):
            machine = snapshot.machine
            failureIsPermanent = snapshot.isPermanentFailure
            if gate.once && snapshot.effects.contains(.unlocked) {
                outcome = .unlocked
                return []
            }
            if gate.once, snapshot.consecutiveFailures > gate.maxFailures || snapshot.isPermanentFailure, let error = snapshot.lastError {
                outcome = .gaveUp(error)
                return []
            }
            var commands: [Command] = []
            for effect in snapshot.effects where effect == .unlocked || effect == .rejected {
                token += 1
                feedback = (effect == .unlocked ? .unlocked : .rejected, token)
                commands = [.feedbackTimer(token: token)]
            }
            return commands
        case .feedbackOver(let over):
            if feedback?.token == over { feedback = nil }
        case .idle(let token):
            if token == idleToken { outcome = .timedOut }
        case .refused:
            outcome = .cancelled
        }
        return []
    }

    private func press(_ slot: Int) -> [Command] {
        switch KeypadView.slots[slot] {
        case .digit(let position): [.send(.digit(machine.layout[position]))]
        case .cancel: [.cancel]
        case .delete: [.send(.delete)]
        }
    }

    /// `--idle-timeout`: a new timer after every key; only the newest one can end the screen.
    private mutating func restartIdleTimer() -> [Command] {
        guard gate.idleTimeout != nil else { return [] }
        idleToken += 1
        return [.idleTimer(token: idleToken)]
    }

    public func draw(into canvas: inout Canvas) {
        let status: KeypadView.Status
        if let feedback {
            status = feedback.status
        } else {
            switch machine.phase {
            case .loading: status = .loading(frame: frame)
            case .failed(_, let message): status = .error(message, retrying: !failureIsPermanent)
            case .ready: status = .ready
            }
        }
        let hint = Chrome.fitted(Self.keys.hints, width: canvas.columns)
        KeypadView(width: canvas.columns, height: canvas.rows).draw(into: &canvas, machine: machine, selected: selected, status: status,
                                                                    hint: hint)
        help?.draw(into: &canvas)
    }
}
