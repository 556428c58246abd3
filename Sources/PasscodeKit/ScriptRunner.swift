import Synchronization
import ToolboxKit

/// Script mode: one action per input line (a digit, `delete`, `cancel`), one line out per
/// state change. Unlike the screen, an action read while loading waits for `ready`: a
/// script cannot see the screen, so dropping its keys would make it guess.
public enum ScriptRunner {
    enum Input: Sendable {
        case chunk([UInt8])
        /// `--idle-timeout`: the timer started after input number `token` ran out.
        case idle(Int)
        /// A call failed in a way another try cannot mend (refused credentials): the script
        /// gives up at once, whether or not more input comes.
        case gaveUp
    }

    /// Runs until the input ends: `.quit` (or, with `--once`, `.cancelled`). Gives up with the
    /// server's error once more than `maxFailures` calls in a row have failed, and throws
    /// `badData` for a line that is no action. With `gate.once` it ends `.unlocked` at the
    /// first unlock and `.cancelled` at a `cancel` on an empty code; with `gate.idleTimeout`,
    /// `.timedOut` when no input came for that long.
    @discardableResult
    public static func run(source: any InternalsSource, input fd: Int32 = 0, maxFailures: Int, gate: GateOptions = GateOptions(),
                           write: @escaping @Sendable (String) -> Void) async throws(ToolError) -> GateOutcome {
        let transcript = Mutex(ScriptTranscript())
        let unlocks = Atomic<Int>(0)
        let (inputs, continuation) = AsyncStream.makeStream(of: Input.self)
        let session = PasscodeSession(source: source) { snapshot in
            if snapshot.effects.contains(.unlocked) { unlocks.add(1, ordering: .sequentiallyConsistent) }
            let lines = transcript.withLock { $0.lines(for: snapshot) }
            for line in lines { write(line) }
            if snapshot.isPermanentFailure { continuation.yield(.gaveUp) }
        }
        BlockingReader.start(fd: fd) { chunk in
            continuation.yield(.chunk(chunk))
            if chunk.isEmpty { continuation.finish() }
        }
        let timer = IdleTimer(seconds: gate.idleTimeout) { continuation.yield(.idle($0)) }
        defer { timer.stop() }
        timer.restart()
        await session.send(.start)
        var pending: [UInt8] = []
        var lineNumber = 0
        do {
            inputLoop: for await input in inputs {
                guard case .chunk(let chunk) = input else {
                    if case .idle(let token) = input, timer.isCurrent(token) {
                        await session.stop()
                        return .timedOut
                    }
                    if case .gaveUp = input, let error = await session.waitUntilReady(maxFailures: maxFailures) { throw error }
                    continue
                }
                timer.restart()
                pending += chunk
                let atEnd = chunk.isEmpty
                while let newline = pending.firstIndex(of: 0x0A) ?? (atEnd && !pending.isEmpty ? pending.count : nil) {
                    let line = String(decoding: pending[..<newline], as: UTF8.self)
                    pending.removeFirst(min(newline + 1, pending.count))
                    lineNumber += 1
                    guard let event = try action(line, lineNumber) else { continue }
                    if let error = await session.waitUntilReady(maxFailures: maxFailures) { throw error }
                    if gate.once, event == .cancel, await session.state.progress == 0 {
                        await session.stop()
                        return .cancelled
                    }
                    await session.send(event)
                    // The session's observer has seen the unlock by the time send returns.
                    if gate.once, unlocks.load(ordering: .sequentiallyConsistent) > 0 {
                        await session.stop()
                        return .unlocked
                    }
                }
                if atEnd { break inputLoop }
            }
        } catch let error as ToolError {
            await session.stop()
            throw error
        } catch {
            await session.stop()
            throw .bug(String(describing: error))
        }
        await session.stop()
        return gate.once ? .cancelled : .quit
    }

    /// The event a line asks for; nil for a blank line.
    static func action(_ line: String, _ number: Int) throws(ToolError) -> PasscodeMachine.Event? {
        let word = line.trimmingSpaces()
        switch word {
        case "": return nil
        case "delete": return .delete
        case "cancel": return .cancel
        default:
            if word.count == 1, let digit = Int(word) { return .digit(digit) }
            throw .badData("line \(number): unknown action \(Terminal.quote(word)) (use a digit, delete or cancel)")
        }
    }
}
