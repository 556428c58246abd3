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
        /// `--idle-timeout` ran out, unless a key came after the timer with this number started.
        case idle(Int)
    }

    /// Runs the screen until it ends; `gate` makes it a gate (`--once`, `--idle-timeout`).
    public static func run(source: any InternalsSource, color: Bool, gate: GateOptions = GateOptions()) async throws(ToolError) -> GateOutcome {
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
        let outcome = await loop(events, continuation, session, terminal, color, gate)
        await session.stop()
        // The terminal is restored (defer) before the caller sets the status.
        return outcome
    }

    /// Handles every event until the screen ends: quit, interrupted, input ended, or with a
    /// gate unlocked, cancelled, timed out or given up.
    private static func loop(_ events: AsyncStream<Event>, _ continuation: AsyncStream<Event>.Continuation,
                             _ session: PasscodeSession, _ terminal: TerminalMode, _ color: Bool,
                             _ gate: GateOptions) async -> GateOutcome {
        let screen = ScreenState(session: session, terminal: terminal, color: color, continuation: continuation, gate: gate)
        await session.send(.start)
        screen.machine = await session.state
        screen.draw()
        screen.updateTicker()
        screen.restartIdleTimer()
        for await event in events {
            if let outcome = await screen.handle(event) {
                screen.stopTimers()
                return outcome
            }
            screen.draw()
        }
        return gate.once ? .cancelled : .quit
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
