#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import CoreKit

/// Runs a `ScreenProgram` on a thread of its own, which alone owns the terminal: it waits in
/// poll(2) for a key or a message, hands each to the program, starts the commands the program
/// asks for as tasks, and draws a frame. Ctrl-C, SIGINT, SIGTERM, SIGHUP and SIGQUIT end the
/// screen with the terminal restored; SIGWINCH re-lays it out. Nothing here ever blocks a key:
/// the program's work runs elsewhere and comes back as messages.
public enum ScreenRunner {
    /// What may post to a running screen: the work a command started.
    public struct Poster<Message: Sendable>: Sendable {
        private let send: @Sendable (Message) -> Void

        init(mailbox: Mailbox<Event<Message>>) { send = { mailbox.post(.message($0)) } }
        private init(send: @escaping @Sendable (Message) -> Void) { self.send = send }

        public func post(_ message: Message) { send(message) }

        /// A poster for the work of a screen shown inside this one (a feed's posts inside the
        /// feed list): each of its messages is wrapped into one of this screen's.
        public func wrapping<Inner: Sendable>(_ wrap: @escaping @Sendable (Inner) -> Message) -> Poster<Inner> {
            let send = self.send
            return Poster<Inner>(send: { send(wrap($0)) })
        }
    }

    enum Event<Message: Sendable>: Sendable {
        case message(Message)
        case signal(Int32)
        case resize
    }

    /// Runs `program` until it has an outcome or is interrupted; `perform` does its commands.
    public static func run<Program: ScreenProgram>(
        _ program: Program, color: Bool,
        perform: @escaping @Sendable (Program.Command, Poster<Program.Message>) async -> Void
    ) async throws(ScreenError) -> ScreenEnd<Program.Outcome> {
        let mailbox = try Mailbox<Event<Program.Message>>()
        let terminal = try CursesTerminal(color: color)
        let signals = trapSignals(mailbox)
        defer {
            for source in signals { source.cancel() }
            for number in [SIGWINCH, SIGTERM, SIGHUP, SIGINT, SIGQUIT] { signal(number, SIG_DFL) }
        }
        let job = Job(program: program, terminal: terminal, mailbox: mailbox, perform: perform)
        let end = await withCheckedContinuation { continuation in
            job.finish = { continuation.resume(returning: $0) }
            PosixThread.start { job.run() }
        }
        // The program ended by itself (q): what it asked to be written is written before the
        // tool exits. An interrupt does not wait.
        if case .finished = end { await job.scheduler.drained() }
        return end
    }

    private static func trapSignals<Message>(_ mailbox: Mailbox<Event<Message>>) -> [any DispatchSourceSignal] {
        let resize = DispatchSource.makeSignalSource(signal: SIGWINCH)
        signal(SIGWINCH, SIG_IGN)
        resize.setEventHandler { mailbox.post(.resize) }
        resize.resume()
        return [resize] + [SIGTERM, SIGHUP, SIGINT, SIGQUIT].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number)
            source.setEventHandler { mailbox.post(.signal(number)) }
            source.resume()
            return source
        }
    }

    /// The loop and what it owns. Created on the caller's task, then used by the screen's
    /// thread alone (the continuation is resumed once, from there).
    final class Job<Program: ScreenProgram>: @unchecked Sendable {
        // @unchecked: after `PosixThread.start` only the screen's thread touches these fields;
        // the caller reads nothing back but the value passed to `finish`.
        var program: Program
        let terminal: CursesTerminal
        let mailbox: Mailbox<Event<Program.Message>>
        var finish: ((ScreenEnd<Program.Outcome>) -> Void)?
        let trace = UITrace()
        let scheduler: CommandScheduler<Program.Command, Program.Message>
        var lastTick = ContinuousClock.now

        init(program: Program, terminal: CursesTerminal, mailbox: Mailbox<Event<Program.Message>>,
             perform: @escaping @Sendable (Program.Command, Poster<Program.Message>) async -> Void) {
            self.program = program
            self.terminal = terminal
            self.mailbox = mailbox
            scheduler = CommandScheduler(poster: Poster(mailbox: mailbox), perform: perform)
        }

        func run() {
            let end = loop()
            scheduler.stop()
            terminal.end()
            finish?(end)
        }

        private func loop() -> ScreenEnd<Program.Outcome> {
            start(program.resized(rows: terminal.size.rows, columns: terminal.size.columns))
            start(program.start())
            draw(causes: ["start"], began: .now)
            var idleReads = 0
            while true {
                if let outcome = program.outcome { return .finished(outcome) }
                var fds = [pollfd(fd: 0, events: Int16(POLLIN), revents: 0),
                           pollfd(fd: mailbox.readEnd, events: Int16(POLLIN), revents: 0)]
                let timeout = program.isBusy ? max(100 - Int32(milliseconds(since: lastTick)), 0) : -1
                if poll(&fds, 2, timeout) < 0 && errno != EINTR { return .inputClosed }
                let began = ContinuousClock.now
                var causes: [String] = []
                var commands: [Program.Command] = []
                if fds[0].revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 { return .inputClosed }
                if fds[0].revents & Int16(POLLIN) != 0 {
                    let inputs = terminal.readInput()
                    // Readable, yet nothing to read, again and again: the input is gone.
                    idleReads = inputs.isEmpty ? idleReads + 1 : 0
                    if idleReads > 100 { return .inputClosed }
                    for input in inputs {
                        switch input {
                        case .interrupt: return .interrupted
                        case .suspend:
                            terminal.suspend()
                            causes.append("resume")
                            commands += program.resized(rows: terminal.size.rows, columns: terminal.size.columns)
                        case .resize:
                            causes.append("resize")
                            commands += program.resized(rows: terminal.size.rows, columns: terminal.size.columns)
                        case .key(let key):
                            causes.append("key " + key.name)
                            commands += program.handle(key)
                        }
                        if program.outcome != nil { break }
                    }
                }
                if fds[1].revents & Int16(POLLIN) != 0 {
                    for event in mailbox.drain() {
                        switch event {
                        case .message(let message):
                            causes.append("data")
                            commands += program.receive(message)
                        case .signal(let number): return number == SIGINT ? .interrupted : .signal(number)
                        case .resize:
                            terminal.resize()
                            causes.append("resize")
                            commands += program.resized(rows: terminal.size.rows, columns: terminal.size.columns)
                        }
                    }
                }
                if program.isBusy, milliseconds(since: lastTick) >= 100 {
                    lastTick = .now
                    program.tick()
                    causes.append("tick")
                }
                start(commands)
                if program.outcome == nil, !causes.isEmpty { draw(causes: causes, began: began) }
            }
        }

        private func milliseconds(since instant: ContinuousClock.Instant) -> Int {
            let (seconds, attoseconds) = (ContinuousClock.now - instant).components
            return Int(seconds * 1000 + attoseconds / 1_000_000_000_000_000)
        }

        private func draw(causes: [String], began: ContinuousClock.Instant) {
            let size = terminal.size
            var canvas = Canvas(rows: size.rows, columns: size.columns)
            program.draw(into: &canvas)
            terminal.draw(canvas)
            trace?.record(causes: causes, began: began)
        }

        private func start(_ commands: [Program.Command]) { scheduler.start(commands) }
    }
}

extension ScreenRunner {
    /// Runs a screen whose outcome is an exit status, as a tool's `ui` command does: its own
    /// status, or 130 and 128 + N when interrupted; a screen that cannot start is a usage error.
    public static func exitStatus<Program: ScreenProgram>(
        _ program: Program, color: Bool,
        perform: @escaping @Sendable (Program.Command, Poster<Program.Message>) async -> Void
    ) async throws(ToolError) -> Int32 where Program.Outcome == Int32 {
        let end: ScreenEnd<Int32>
        do {
            end = try await run(program, color: color, perform: perform)
        } catch {
            throw error.toolError
        }
        if case .finished(let status) = end { return status }
        return end.conventionalStatus ?? 0
    }
}
