/// Script mode's output: one line per state change, derived from consecutive snapshots:
/// `loading`, `ready 3 9 0 7 1 8 2 6 5 4`, `progress 2`, `unlocked`, `rejected`, `error MESSAGE`.
public struct ScriptTranscript: Sendable {
    private var previous: PasscodeMachine?

    public init() {}

    /// The lines that `snapshot` adds after the previous one.
    public mutating func lines(for snapshot: PasscodeSession.Snapshot) -> [String] {
        var lines: [String] = []
        let machine = snapshot.machine
        defer { previous = machine }
        for effect in snapshot.effects {
            switch effect {
            case .unlocked: lines.append("unlocked")
            case .rejected: lines.append("rejected")
            default: break
            }
        }
        switch (previous?.phase, machine.phase) {
        case (.loading?, .loading): break
        case (_, .loading): lines.append("loading")
        case (.ready?, .ready):
            if previous?.progress != machine.progress && !lines.contains("rejected") {
                lines.append("progress \(machine.progress)")
            }
        case (_, .ready):
            lines.append("ready " + machine.layout.map(String.init).joined(separator: " "))
        case (.failed(let oldCall, _)?, .failed(let call, _)) where oldCall == call: break
        case (_, .failed(_, let message)):
            lines.append("error " + message)
        }
        return lines
    }
}
