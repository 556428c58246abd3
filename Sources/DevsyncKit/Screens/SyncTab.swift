import ScreenKit
import ToolboxKit

/// `devsync ui`'s Sync tab, a child screen of `DeviceBrowser` (as `DeviceDetail` is): the
/// pending changes as a sync goes through them (`SyncBoard`) above the big Sync button, where
/// the focus is, and the tab's keys; what they ask of the browser comes back as a request.
struct SyncTab: Sendable {
    var board = SyncBoard()
    /// Whether the Sync button has the focus (else a change has).
    var onButton = true
    var list = ListView()

    /// What a key here asks of `DeviceBrowser`.
    enum Request: Sendable, Equatable {
        case sync, open(id: String), switchTab, pull, stop
        /// A key whose binding does nothing now: the reason, for the footer.
        case refused(String)
    }

    enum Action: Sendable, Equatable { case motion(Motion), open, sync, switchTab, pull, help, back }

    static let keys = KeyTable<Action>(
        Motion.bindings.map { .init($0.keys, $0.label, Action.motion($0.action)) } + [
            .init([.enter], "on the button: sync; on a change: open its device", .open, hint: "sync"),
            .init([.character("S")], "sync now", .sync),
            .init([.tab, .backTab], "the device list", .switchTab, hint: "devices"),
            .init([.character("R")], "pull the device list from the server", .pull),
            .init([.character("?"), .function(1)], "this help", .help),
            .init([.escape, .character("q")], "while syncing: stop after the requests in flight; else back", .back, hint: "back"),
        ])

    /// The footer's hints: while a sync runs, only how to leave and stop it.
    var hints: [String] {
        board.running ? Self.keys.hints(where: { $0 == .switchTab || $0 == .back },
                                        hint: { $0 == .back ? "stops after the requests in flight" : nil })
            : Self.keys.hints
    }

    /// Why a binding does nothing now, or nil: while a sync runs, another sync (S, Enter on
    /// the button) and a pull of the device list (R) wait for it.
    func disabledReason(_ action: Action) -> String? {
        guard board.running else { return nil }
        switch action {
        case .sync, .pull: return "a sync is running"
        case .open where onButton: return "a sync is running"
        default: return nil
        }
    }

    mutating func handle(_ key: KeyPress) -> SubScreenReply<Request> {
        let action: Action
        switch Self.keys.press(key, disabled: disabledReason) {
        case .unbound: return .ignored
        case .disabled(let reason): return .request(.refused(reason))
        case .action(let bound): action = bound
        }
        switch action {
        case .motion(let motion): move(motion)
        case .open:
            if onButton { return .request(.sync) }
            return selectedID.map { .request(.open(id: $0)) } ?? .handled
        case .sync: return .request(.sync)
        case .switchTab: return .request(.switchTab)
        case .pull: return .request(.pull)
        case .help: return .help
        case .back: return board.running ? .request(.stop) : .back
        }
        return .handled
    }

    /// Rows of the Sync button, and the summary line under it once a sync ended.
    static let buttonRows = 3

    mutating func layout(_ body: Rect) {
        list.layout(Rect(row: body.row + 1, column: 0, rows: body.rows - 2 - Self.buttonRows, columns: body.columns))
    }

    /// The pending changes as the store has them now.
    mutating func show(pending: [Device]) {
        board.load(pending: pending)
        list.setSections([ListView.Section(items: board.rows.map(\.id))])
    }

    /// One event of the running sync; a change it claims joins the list. True when the
    /// server took a change (one fewer pending).
    mutating func apply(_ event: SyncEvent) -> Bool {
        let settled = board.apply(event)
        if case .claimed = event { list.setSections([ListView.Section(items: board.rows.map(\.id))]) }
        return settled
    }

    /// The device of the change with the focus, if a change has it.
    var selectedID: String? {
        guard !onButton, let index = list.selection, index < board.rows.count else { return nil }
        return board.rows[index].id
    }

    /// ↑ from the button goes to the last change, ↓ from the last change to the button.
    mutating func move(_ motion: Motion) {
        let count = board.rows.count
        if onButton {
            guard count > 0, [.up, .pageUp, .halfPageUp, .first].contains(motion) else { return }
            onButton = false
            list.move(motion == .first ? .first : .last)
        } else if [.down, .pageDown, .halfPageDown, .last].contains(motion), list.selection == count - 1 || motion == .last {
            onButton = true
        } else {
            list.move(motion)
        }
    }

    func draw(into canvas: inout Canvas, body: Rect, idWidth: Int, tick: Int) {
        let dateColumn = 2 + idWidth + 2
        let stateColumn = dateColumn + DeviceLine.dateWidth + 2
        canvas.put("  ID", row: body.row, column: 0, width: dateColumn, style: .dim)
        canvas.put("LOCAL DATE", row: body.row, column: dateColumn, width: DeviceLine.dateWidth, style: .dim)
        canvas.put("STATE", row: body.row, column: stateColumn, style: .dim)
        if board.rows.isEmpty {
            canvas.put(" nothing to sync: every change recorded here has reached the server", row: list.rect.row, column: 0,
                       width: body.columns, style: .dim)
        } else {
            let rows = board.rows
            list.draw(into: &canvas, focused: !onButton) { canvas, index, _, row, column, width in
                let entry = rows[index]
                let mark = if case .conflict = entry.state { "!" } else { " " }
                canvas.put(mark + " " + TextWidth.truncate(entry.id, to: idWidth), row: row, column: column, width: width)
                canvas.put(DeviceLine.date(entry.date), row: row, column: column + dateColumn, width: DeviceLine.dateWidth)
                let (text, style) = SyncBoard.describe(entry.state)
                canvas.put(text, row: row, column: column + stateColumn, width: max(width - stateColumn, 0), style: style)
            }
        }
        drawButton(into: &canvas, row: body.row + body.rows - Self.buttonRows - (board.summary == nil ? 0 : 1), columns: body.columns,
                   tick: tick)
        if let summary = board.summary {
            canvas.put(" " + summary, row: body.row + body.rows - 1, column: 0, width: body.columns, style: .bold)
        }
    }

    /// The big Sync button: three rows, reversed while it has the focus.
    private func drawButton(into canvas: inout Canvas, row: Int, columns: Int, tick: Int) {
        let label = board.running ? (board.stopping ? "Stopping…" : Spinner.frame(tick) + " Syncing…") : "Sync"
        let width = min(max(columns / 3, 20), columns - 2)
        let box = Rect(row: row, column: max((columns - width) / 2, 0), rows: 3, columns: width)
        Frame.draw(into: &canvas, rect: box, title: "")
        let focused = onButton && !board.running
        if focused { canvas.fill(row: row + 1, column: box.column + 1, width: width - 2, style: .selected) }
        let text = focused ? "▶ " + label + " ◀" : label
        canvas.put(text, row: row + 1, column: box.column + max((width - TextWidth.of(text)) / 2, 1), width: width - 2,
                   style: focused ? Style(bold: true, reverse: true) : .bold)
    }
}
