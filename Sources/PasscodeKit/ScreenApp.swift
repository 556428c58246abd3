#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import ToolboxKit

/// The interactive screen: raw terminal, keypad drawn by `KeypadView`, keys and clicks into
/// the session, snapshots back out, redrawing only what changed. Everything that happens
/// (a key, an arrival, a spinner tick, a resize) is one event in one stream, handled by one
/// loop, so the view's own state has a single owner too.
public enum ScreenApp {
    enum Event: Sendable {
        case snapshot(PasscodeSession.Snapshot)
        case key(Key)
        case tick
        case feedbackOver(Int)
        case resize
        case inputEnded
    }

    public static func run(source: any InternalsSource, color: Bool) async throws(ToolError) {
        let terminal = TerminalMode()
        try terminal.enter()
        let signals = trapSignals(terminal)
        defer {
            terminal.restore()
            for source in signals { source.cancel() }
        }
        let (events, continuation) = AsyncStream.makeStream(of: Event.self)
        let resize = DispatchSource.makeSignalSource(signal: SIGWINCH)
        signal(SIGWINCH, SIG_IGN)
        resize.setEventHandler { continuation.yield(.resize) }
        resize.resume()
        defer { resize.cancel() }

        let session = PasscodeSession(source: source) { continuation.yield(.snapshot($0)) }
        let decoder = SharedKeyDecoder()
        BlockingReader.start(fd: 0) { chunk in
            if chunk.isEmpty {
                continuation.yield(.inputEnded)
                return
            }
            for key in decoder.decode(chunk) { continuation.yield(.key(key)) }
        }
        let interrupted = await loop(events, continuation, session, terminal, color)
        await session.stop()
        // The terminal is restored (defer) before the status is set: 130, as after any Ctrl-C.
        if interrupted { throw .interrupted }
    }

    private static func loop(_ events: AsyncStream<Event>, _ continuation: AsyncStream<Event>.Continuation,
                             _ session: PasscodeSession, _ terminal: TerminalMode, _ color: Bool) async -> Bool {
        await session.send(.start)
        var machine = await session.state
        var selected = 10  // the bottom digit, under the thumb
        var frame = 0
        var feedback: (status: KeypadView.Status, token: Int)?
        var token = 0
        var ticker: Task<Void, Never>?
        var screen = ScreenUpdate()

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

        func updateTicker() {
            if case .loading = machine.phase {
                guard ticker == nil else { return }
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

        func press(_ slot: Int) async {
            switch KeypadView.slots[slot] {
            case .digit(let position): await session.send(.digit(machine.layout[position]))
            case .cancel: await session.send(.cancel)
            case .delete: await session.send(.delete)
            }
        }

        draw()
        updateTicker()
        for await event in events {
            switch event {
            case .snapshot(let snapshot):
                machine = snapshot.machine
                for effect in snapshot.effects {
                    guard effect == .unlocked || effect == .rejected else { continue }
                    token += 1
                    feedback = (effect == .unlocked ? .unlocked : .rejected, token)
                    let current = token
                    Task {
                        try? await Task.sleep(for: .milliseconds(1200))
                        continuation.yield(.feedbackOver(current))
                    }
                }
                updateTicker()
            case .key(let key):
                switch key {
                case .quit, .interrupt:
                    ticker?.cancel()
                    return key == .interrupt
                case .digit(let digit): await session.send(.digit(digit))
                case .backspace: await session.send(.delete)
                case .escape: await session.send(.cancel)
                case .enter: await press(selected)
                case .up, .down, .left, .right: selected = KeypadView.move(selected, key)
                case .click(let row, let column):
                    if let slot = KeypadView(width: Terminal.width()).button(row: row, column: column) {
                        selected = slot
                        await press(slot)
                    }
                }
            case .tick:
                frame += 1
            case .feedbackOver(let over):
                if feedback?.token == over { feedback = nil }
            case .resize:
                terminal.write("\u{1B}[2J")
                screen.invalidate()
            case .inputEnded:
                ticker?.cancel()
                return false
            }
            draw()
        }
        return false
    }

    /// SIGTERM, SIGHUP, SIGINT and SIGQUIT restore the terminal before the process ends.
    static func trapSignals(_ terminal: TerminalMode) -> [any DispatchSourceSignal] {
        [SIGTERM, SIGHUP, SIGINT, SIGQUIT].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number)
            source.setEventHandler {
                terminal.restore()
                exit(128 + number)
            }
            source.resume()
            return source
        }
    }
}
