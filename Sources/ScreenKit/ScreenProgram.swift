/// A full-screen program as ScreenKit runs it: pure state that keys and arriving data change,
/// and a render function. It never touches the terminal or the network: it asks for work with
/// commands, and the work's results come back as messages, on the one thread that owns the
/// terminal. So every key of every screen is unit-tested by calling `handle` and reading `draw`.
/// Layout happens in `resized`, which comes before `start` and after every change of size;
/// `draw` is not mutating, so nothing a key reads can depend on whether a frame was drawn.
public protocol ScreenProgram: Sendable {
    /// Data arriving from work the program asked for.
    associatedtype Message: Sendable
    /// Work the program asks for (a request, a timer, a write).
    associatedtype Command: ScreenCommand
    /// How the program ended, when it ends by itself.
    associatedtype Outcome: Sendable

    /// The commands to run when the screen appears.
    mutating func start() -> [Command]
    mutating func handle(_ key: KeyPress) -> [Command]
    mutating func receive(_ message: Message) -> [Command]
    /// Called every 100 ms while `isBusy`: spinners turn.
    mutating func tick()
    var isBusy: Bool { get }
    /// Set when the program is done; the screen closes and `ScreenRunner.run` returns it.
    var outcome: Outcome? { get }
    /// Paints the whole screen on `canvas`, which is the terminal's size.
    func draw(into canvas: inout Canvas)
    /// The terminal's size, before `start` and whenever it changes: the screen lays itself
    /// out (work that depends on the size, such as a body laid out elsewhere, can be asked
    /// for again); `draw` follows.
    mutating func resized(rows: Int, columns: Int) -> [Command]
}

/// How a command runs: in order with the others of its queue (keys sent to a session), or as
/// the latest of its slot, cancelling the one before (a reload replaces a reload).
public enum CommandPolicy: Sendable, Equatable {
    case serial(String)
    case latest(String)
}

public protocol ScreenCommand: Sendable {
    var policy: CommandPolicy { get }
}

/// How a screen ended: the program's outcome, Ctrl-C, a signal, or its input closed.
public enum ScreenEnd<Outcome: Sendable>: Sendable {
    case finished(Outcome)
    case interrupted
    case signal(Int32)
    case inputClosed

    /// The exit status a tool gives for an end that is not the program's own: 130 for Ctrl-C,
    /// 128 + N for signal N, 0 when the input closed.
    public var conventionalStatus: Int32? {
        switch self {
        case .finished: nil
        case .interrupted: 130
        case .signal(let number): 128 + number
        case .inputClosed: 0
        }
    }
}
