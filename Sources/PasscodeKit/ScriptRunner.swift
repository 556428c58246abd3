import Synchronization
import ToolboxKit

/// Script mode: one action per input line (a digit, `delete`, `cancel`), one line out per
/// state change. Unlike the screen, an action read while loading waits for `ready`: a
/// script cannot see the screen, so dropping its keys would make it guess.
public enum ScriptRunner {
    /// Runs until the input ends. Throws the server's error once more than `maxFailures`
    /// calls in a row have failed, and `badData` for a line that is no action.
    public static func run(source: any InternalsSource, input fd: Int32 = 0, maxFailures: Int,
                           write: @escaping @Sendable (String) -> Void) async throws(ToolError) {
        let transcript = Mutex(ScriptTranscript())
        let session = PasscodeSession(source: source) { snapshot in
            let lines = transcript.withLock { $0.lines(for: snapshot) }
            for line in lines { write(line) }
        }
        let (chunks, continuation) = AsyncStream.makeStream(of: [UInt8].self)
        BlockingReader.start(fd: fd) { chunk in
            continuation.yield(chunk)
            if chunk.isEmpty { continuation.finish() }
        }
        await session.send(.start)
        var pending: [UInt8] = []
        var lineNumber = 0
        do {
            for await chunk in chunks {
                pending += chunk
                let atEnd = chunk.isEmpty
                while let newline = pending.firstIndex(of: 0x0A) ?? (atEnd && !pending.isEmpty ? pending.count : nil) {
                    let line = String(decoding: pending[..<newline], as: UTF8.self)
                    pending.removeFirst(min(newline + 1, pending.count))
                    lineNumber += 1
                    guard let event = try action(line, lineNumber) else { continue }
                    if let error = await session.waitUntilReady(maxFailures: maxFailures) { throw error }
                    await session.send(event)
                }
                if atEnd { break }
            }
        } catch let error as ToolError {
            await session.stop()
            throw error
        } catch {
            await session.stop()
            throw .bug(String(describing: error))
        }
        await session.stop()
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
            throw .badData("line \(number): unknown action \"\(Terminal.sanitize(word))\" (use a digit, delete or cancel)")
        }
    }
}
