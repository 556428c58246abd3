import ScreenKit
import ToolboxKit

extension PasscodeScreen {
    /// Runs the keypad on a terminal until it ends; `gate` makes it a gate (`--once`,
    /// `--idle-timeout`).
    public static func run(source: any InternalsSource, color: Bool, gate: GateOptions = GateOptions()) async throws(ToolError) -> GateOutcome {
        let (snapshots, continuation) = AsyncStream.makeStream(of: PasscodeSession.Snapshot.self)
        let session = PasscodeSession(source: source) { continuation.yield($0) }
        let end: ScreenEnd<GateOutcome>
        do {
            end = try await ScreenRunner.run(PasscodeScreen(gate: gate), color: color) { command, poster in
                await perform(command, session: session, snapshots: snapshots, gate: gate, poster: poster)
            }
        } catch {
            throw error.toolError
        }
        continuation.finish()
        await session.stop()
        switch end {
        case .finished(let outcome): return outcome
        case .interrupted, .signal: return .interrupted
        case .inputClosed: return gate.once ? .cancelled : .quit
        }
    }

    static func perform(_ command: Command, session: PasscodeSession, snapshots: AsyncStream<PasscodeSession.Snapshot>,
                        gate: GateOptions, poster: ScreenRunner.Poster<Message>) async {
        switch command {
        case .listen:
            for await snapshot in snapshots { poster.post(.snapshot(snapshot)) }
        case .send(let event):
            await session.send(event)
        case .cancel:
            if gate.once, await session.state.progress == 0 {
                poster.post(.refused)
            } else {
                await session.send(.cancel)
            }
        case .feedbackTimer(let token):
            try? await Task.sleep(for: .milliseconds(1200))
            if !Task.isCancelled { poster.post(.feedbackOver(token: token)) }
        case .idleTimer(let token):
            guard let seconds = gate.idleTimeout else { return }
            try? await Task.sleep(for: .milliseconds(Int64(seconds * 1000)))
            if !Task.isCancelled { poster.post(.idle(token: token)) }
        }
    }
}
