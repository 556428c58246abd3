import FoundationEssentials
import ScreenKit
import ToolboxKit

/// The detail screen: one device's fields, the server's date and the pending one, and its
/// history (as `devsync log ID`). `i` opens a date field prefilled with now (any form
/// `devsync install --at` takes), `c` records "not installed", `d` discards the pending
/// change after asking; on a conflict `m` keeps the local value and `t` takes the server's.
/// Nothing here writes: it returns what to record, and the browser shows the device again
/// once the store has it.
public struct DeviceDetail: Sendable, Equatable {
    /// What the detail asks of the browser besides the shared replies.
    public enum Request: Sendable, Equatable {
        /// S and R, as on every screen.
        case sync, pull
        case record(Date?)
        case discard
        case keepLocal
        case takeServer
    }

    enum Action: Sendable, Equatable { case motion(Motion), setDate, clear, discard, keepLocal, takeServer, sync, pull, help, back }

    static let keys = KeyTable<Action>(
        Motion.bindings.map { .init($0.keys, "history: " + $0.label, Action.motion($0.action)) } + [
            .init([.character("i")], "set the installation date (Enter records it, Esc cancels)", .setDate, hint: "set date"),
            .init([.character("c")], "clear it: not installed", .clear, hint: "clear"),
            .init([.character("d")], "discard the pending change (asks first)", .discard, hint: "discard"),
            .init([.character("m")], "conflict: keep mine, the local date", .keepLocal),
            .init([.character("t")], "conflict: take theirs, the server's date", .takeServer),
            .init([.character("S")], "sync now (the sync screen)", .sync),
            .init([.character("R")], "pull the device list from the server", .pull),
            .init([.character("?"), .function(1)], "this help", .help),
            .init([.escape, .character("q")], "back", .back, hint: "back"),
        ])

    /// What the keys do while a date is typed (every other key edits it).
    enum FieldAction: Sendable, Equatable { case record, cancel }
    static let dateKeys = KeyTable<FieldAction>([
        .init([.enter], "record the date", .record, hint: "records"),
        .init([.escape], "cancel", .cancel, hint: "cancels"),
    ])
    /// The footer while a date is typed: its keys, then the forms it takes.
    static let dateHints = dateKeys.hints + ["as devsync install --at: 2024-03-04 09:15, today 08:00"]

    public internal(set) var device: Device
    /// Newest first; nil until loaded.
    public internal(set) var history: [HistoryEvent]?
    /// The date being typed, while `i` is open.
    public internal(set) var dateField: TextField?
    public internal(set) var confirmingDiscard = false
    /// A bad date, or why an action does not apply: shown under the fields.
    public internal(set) var message: String?
    /// The first history row shown.
    var historyTop = 0
    /// Where the detail is drawn, from the last `layout`.
    private(set) var rect = Rect(row: 2, column: 1, rows: 20, columns: 78)

    public init(device: Device) { self.device = device }

    public mutating func layout(_ rect: Rect) {
        self.rect = rect
        keepHistoryInView()
    }

    public mutating func update(_ device: Device) {
        self.device = device
        keepHistoryInView()
    }

    public mutating func showHistory(_ events: [HistoryEvent]) {
        history = events
        keepHistoryInView()
    }

    private mutating func keepHistoryInView() {
        historyTop = max(min(historyTop, (history?.count ?? 0) - historyPage), 0)
    }
    public mutating func say(_ message: String?) { self.message = message }

    /// `now` prefills the date field.
    public mutating func handle(_ key: KeyPress, now: Date) -> SubScreenReply<Request> {
        defer { keepHistoryInView() }
        if var field = dateField { return handleField(key, &field) }
        if confirmingDiscard {
            confirmingDiscard = false
            message = nil
            return key == .character("y") || key == .character("Y") ? .request(.discard) : .handled
        }
        message = nil
        switch Self.keys.action(for: key) {
        case .motion(let motion)?:
            historyTop = motion.apply(to: historyTop, count: history?.count ?? 0, page: historyPage)
        case .setDate?: dateField = TextField(label: "installed at:", text: DateDisplay.human(now))
        case .clear?: return .request(.record(nil))
        case .discard?:
            guard device.change != nil else {
                message = "nothing to discard: no pending change"
                return .handled
            }
            confirmingDiscard = true
        case .keepLocal?, .takeServer?:
            guard device.change?.serverChange != nil else {
                message = "no conflict to resolve"
                return .handled
            }
            return .request(key == .character("m") ? .keepLocal : .takeServer)
        case .sync?: return .request(.sync)
        case .pull?: return .request(.pull)
        case .help?: return .help
        case .back?: return .back
        case nil: return .ignored
        }
        return .handled
    }

    private mutating func handleField(_ key: KeyPress, _ field: inout TextField) -> SubScreenReply<Request> {
        switch Self.dateKeys.action(for: key) {
        case .cancel?:
            dateField = nil
            message = nil
        case .record?:
            do {
                let date = try DateInput.parse(field.text)
                dateField = nil
                message = nil
                return .request(.record(date))
            } catch {
                message = error.message
            }
        case nil:
            _ = field.handle(key)
            dateField = field
        }
        return .handled
    }
}
