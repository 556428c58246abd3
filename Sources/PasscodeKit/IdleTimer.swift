import Synchronization

/// `--idle-timeout`: calls `fire` with a token once `seconds` pass without a `restart`. Only
/// the newest timer's token is current, so a late firing of an older one ends nothing.
final class IdleTimer: Sendable {
    private let seconds: Double?
    private let fire: @Sendable (Int) -> Void
    private let state = Mutex<(token: Int, task: Task<Void, Never>?)>((0, nil))

    init(seconds: Double?, fire: @escaping @Sendable (Int) -> Void) {
        self.seconds = seconds
        self.fire = fire
    }

    func restart() {
        guard let seconds else { return }
        let fire = self.fire
        state.withLock { state in
            state.task?.cancel()
            state.token += 1
            let token = state.token
            state.task = Task {
                try? await Task.sleep(for: .milliseconds(Int(seconds * 1000)))
                if !Task.isCancelled { fire(token) }
            }
        }
    }

    func isCurrent(_ token: Int) -> Bool { state.withLock { $0.token == token } }

    func stop() { state.withLock { $0.task?.cancel() } }
}
