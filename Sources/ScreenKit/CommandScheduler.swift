/// Starts the commands a screen asks for, by their policy: a `.latest` command cancels the
/// one before it in its slot (a reload replaces a reload); `.serial` commands of one queue
/// run one after another, in order (the keys sent to a session, the marks written to a file).
/// At a clean exit the serial queues are closed and their work awaited, so nothing the user
/// asked to be written is lost when the screen closes.
final class CommandScheduler<Command: ScreenCommand, Message: Sendable>: @unchecked Sendable {
    // @unchecked: used from the screen's thread alone, then by `drained` once that thread
    // has handed over (the runner resumes its caller from there).
    typealias Perform = @Sendable (Command, ScreenRunner.Poster<Message>) async -> Void

    private let perform: Perform
    private let poster: ScreenRunner.Poster<Message>
    private var queues: [String: AsyncStream<Command>.Continuation] = [:]
    private var queueTasks: [Task<Void, Never>] = []
    private var latest: [String: Task<Void, Never>] = [:]

    init(poster: ScreenRunner.Poster<Message>, perform: @escaping Perform) {
        self.poster = poster
        self.perform = perform
    }

    func start(_ commands: [Command]) {
        let (perform, poster) = (self.perform, self.poster)
        for command in commands {
            switch command.policy {
            case .latest(let slot):
                latest[slot]?.cancel()
                latest[slot] = Task { await perform(command, poster) }
            case .serial(let name):
                if queues[name] == nil {
                    let (stream, continuation) = AsyncStream.makeStream(of: Command.self)
                    queues[name] = continuation
                    queueTasks.append(Task { for await queued in stream { await perform(queued, poster) } })
                }
                queues[name]?.yield(command)
            }
        }
    }

    /// Cancels the `.latest` work (nobody will see its answer) and closes the serial queues.
    func stop() {
        for task in latest.values { task.cancel() }
        for queue in queues.values { queue.finish() }
    }

    /// Waits until every serial command asked for has run.
    func drained() async {
        for task in queueTasks { await task.value }
    }
}
