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

    /// Handles every event until the user quits (false) or interrupts (true), or input ends.
    private static func loop(_ events: AsyncStream<Event>, _ continuation: AsyncStream<Event>.Continuation,
                             _ session: PasscodeSession, _ terminal: TerminalMode, _ color: Bool) async -> Bool {
        let screen = ScreenState(session: session, terminal: terminal, color: color, continuation: continuation)
        await session.send(.start)
        screen.machine = await session.state
        screen.draw()
        screen.updateTicker()
        for await event in events {
            if let interrupted = await screen.handle(event) { return interrupted }
            screen.draw()
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
