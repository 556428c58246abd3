import ToolboxKit

/// What the screen shows besides the session's machine (the selected button, the spinner's
/// frame, the unlocked/rejected feedback), and how each event changes it. Owned by the
/// screen's one loop, so it needs no lock.
final class ScreenState {
    let session: PasscodeSession
    let terminal: TerminalMode
    let color: Bool
    let continuation: AsyncStream<ScreenApp.Event>.Continuation
    let gate: GateOptions
    let idleTimer: IdleTimer

    var machine = PasscodeMachine()
    /// The selected button: the bottom digit, under the thumb, at first.
    var selected = 10
    var frame = 0
    var feedback: (status: KeypadView.Status, token: Int)?
    var token = 0
    var ticker: Task<Void, Never>?
    var screen = ScreenUpdate()

    init(session: PasscodeSession, terminal: TerminalMode, color: Bool,
         continuation: AsyncStream<ScreenApp.Event>.Continuation, gate: GateOptions = GateOptions()) {
        self.session = session
        self.terminal = terminal
        self.color = color
        self.continuation = continuation
        self.gate = gate
        idleTimer = IdleTimer(seconds: gate.idleTimeout) { continuation.yield(.idle($0)) }
    }

    /// Applies one event. Returns nil to go on, or how the screen ended.
    func handle(_ event: ScreenApp.Event) async -> GateOutcome? {
        switch event {
        case .snapshot(let snapshot):
            machine = snapshot.machine
            if gate.once && snapshot.effects.contains(.unlocked) { return .unlocked }
            if gate.once, snapshot.consecutiveFailures > gate.maxFailures, let error = snapshot.lastError {
                return .gaveUp(error)
            }
            for effect in snapshot.effects where effect == .unlocked || effect == .rejected {
                showFeedback(effect == .unlocked ? .unlocked : .rejected)
            }
            updateTicker()
        case .key(let key):
            restartIdleTimer()
            return await handle(key)
        case .idle(let token):
            if idleTimer.isCurrent(token) { return .timedOut }
        case .tick:
            frame += 1
        case .feedbackOver(let over):
            if feedback?.token == over { feedback = nil }
        case .resize:
            terminal.write(SGR.clearScreen)
            screen.invalidate()
        case .inputEnded:
            return gate.once ? .cancelled : .quit
        }
        return nil
    }

    private func handle(_ key: Key) async -> GateOutcome? {
        switch key {
        case .interrupt: return .interrupted
        case .quit: return gate.once ? .cancelled : .quit
        case .digit(let digit): await session.send(.digit(digit))
        case .backspace: await session.send(.delete)
        case .escape: return await cancel()
        case .enter: return await press(selected)
        case .up, .down, .left, .right: selected = KeypadView.move(selected, key)
        case .click(let row, let column):
            if let slot = KeypadView(width: Terminal.width()).button(row: row, column: column) {
                selected = slot
                return await press(slot)
            }
        }
        return nil
    }

    /// Unlocked or rejected, shown for 1.2 s unless newer feedback replaces it.
    private func showFeedback(_ status: KeypadView.Status) {
        token += 1
        feedback = (status, token)
        let current = token
        let continuation = self.continuation
        Task {
            try? await Task.sleep(for: .milliseconds(1200))
            continuation.yield(.feedbackOver(current))
        }
    }

    private func press(_ slot: Int) async -> GateOutcome? {
        switch KeypadView.slots[slot] {
        case .digit(let position): await session.send(.digit(machine.layout[position]))
        case .cancel: return await cancel()
        case .delete: await session.send(.delete)
        }
        return nil
    }

    /// Esc or the cancel button: clears the digits; a gate's cancel on an empty code is a refusal.
    /// The session's own state decides, not this view's copy, which may not yet have seen the
    /// snapshot of a key pressed just before (Esc Esc typed fast).
    private func cancel() async -> GateOutcome? {
        if gate.once, await session.state.progress == 0 { return .cancelled }
        await session.send(.cancel)
        return nil
    }

    func draw() {
        let view = KeypadView(width: Terminal.width())
        let status: KeypadView.Status
        if let feedback { status = feedback.status } else {
            switch machine.phase {
            case .loading: status = .loading(frame: frame)
            case .failed(_, let message): status = .error(message)
            case .ready: status = .ready
            }
        }
        terminal.write(screen.bytes(for: view.render(machine: machine, selected: selected, status: status, color: color)))
    }

    /// `--idle-timeout`: a new timer after every key; only the newest one can end the screen.
    func restartIdleTimer() { idleTimer.restart() }

    func stopTimers() {
        ticker?.cancel()
        idleTimer.stop()
    }

    /// The spinner ticks while loading, and only then.
    func updateTicker() {
        if case .loading = machine.phase {
            guard ticker == nil else { return }
            let continuation = self.continuation
            ticker = Task {
                while !Task.isCancelled {
                    try? await Task.sleep(for: .milliseconds(100))
                    continuation.yield(.tick)
                }
            }
        } else {
            ticker?.cancel()
            ticker = nil
        }
    }
}
