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
    public enum Action: Sendable, Equatable {
        case none, back, help
        /// S and R, as on every screen.
        case sync, pull
        case record(Date?)
        case discard
        case keepLocal
        case takeServer
    }

    enum Key: Sendable, Equatable { case motion(Motion), setDate, clear, discard, keepLocal, takeServer, sync, pull, help, back }

    static let keys = KeyTable<Key>(
        Motion.bindings.map { ($0.keys, "history: " + $0.label, Key.motion($0.action)) } + [
            ([.character("i")], "set the installation date (Enter records it, Esc cancels)", .setDate),
            ([.character("c")], "clear it: not installed", .clear),
            ([.character("d")], "discard the pending change (asks first)", .discard),
            ([.character("m")], "conflict: keep mine, the local date", .keepLocal),
            ([.character("t")], "conflict: take theirs, the server's date", .takeServer),
            ([.character("S")], "sync now (the sync screen)", .sync),
            ([.character("R")], "pull the device list from the server", .pull),
            ([.character("?")], "this help", .help),
            ([.escape, .character("q")], "back", .back),
        ])

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
    var historyPage = 5

    public init(device: Device) { self.device = device }

    public mutating func update(_ device: Device) { self.device = device }
    public mutating func showHistory(_ events: [HistoryEvent]) {
        history = events
        historyTop = min(historyTop, max(events.count - 1, 0))
    }
    public mutating func say(_ message: String?) { self.message = message }

    /// `now` prefills the date field.
    public mutating func handle(_ key: KeyPress, now: Date) -> Action {
        if var field = dateField { return handleField(key, &field) }
        if confirmingDiscard {
            confirmingDiscard = false
            message = nil
            return key == .character("y") || key == .character("Y") ? .discard : .none
        }
        message = nil
        switch Self.keys.action(for: key) {
        case .motion(let motion)?:
            historyTop = motion.apply(to: historyTop, count: history?.count ?? 0, page: historyPage)
        case .setDate?: dateField = TextField(label: "installed at:", text: DateDisplay.human(now))
        case .clear?: return .record(nil)
        case .discard?:
            guard device.change != nil else {
                message = "nothing to discard: no pending change"
                return .none
            }
            confirmingDiscard = true
        case .keepLocal?, .takeServer?:
            guard device.change?.serverChange != nil else {
                message = "no conflict to resolve"
                return .none
            }
            return key == .character("m") ? .keepLocal : .takeServer
        case .sync?: return .sync
        case .pull?: return .pull
        case .help?: return .help
        case .back?: return .back
        case nil: break
        }
        return .none
    }

    private mutating func handleField(_ key: KeyPress, _ field: inout TextField) -> Action {
        switch key {
        case .escape:
            dateField = nil
            message = nil
        case .enter:
            do {
                let date = try DateInput.parse(field.text)
                dateField = nil
                message = nil
                return .record(date)
            } catch {
                message = error.message
            }
        default:
            _ = field.handle(key)
            dateField = field
        }
        return .none
    }
}
