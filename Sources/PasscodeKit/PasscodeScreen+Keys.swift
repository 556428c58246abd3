import ScreenKit
import ToolboxKit

extension PasscodeScreen {
    enum Action: Sendable, Equatable { case digit, delete, cancel, press, move, help, quit }

    static let keys = KeyTable<Action>([
        .init((0...9).map { .character(Character(String($0))) }, "type the digit", .digit, hint: "digit", shownAs: "0–9"),
        .init([.up, .down, .left, .right], "choose a button (or click one)", .move, shownAs: "←↑→↓"),
        .init([.enter], "press the chosen button", .press, hint: "press"),
        .init([.backspace, .delete], "delete the last digit", .delete, hint: "delete"),
        .init([.escape], "cancel the code typed (a gate with none typed: cancel the gate)", .cancel, hint: "cancel"),
        .init([.character("q"), .character("Q"), .control("d")], "quit", .quit, hint: "quit"),
        .init([.character("?"), .function(1)], "this help", .help, hint: "help"),
    ])

    public mutating func handle(_ key: KeyPress) -> [Command] {
        let idle = restartIdleTimer()
        if feedback?.status == .rejected { feedback = nil }
        if chrome.takes(key) { return idle }
        if case .click(let row, let column) = key {
            guard let slot = KeypadView(width: chrome.columns, height: chrome.rows).button(row: row, column: column) else { return idle }
            selected = slot
            return idle + press(slot)
        }
        switch Self.keys.action(for: key) {
        case .quit?: outcome = permanentError.map { .gaveUp($0) } ?? (gate.once ? .cancelled : .quit)
        case .digit?:
            guard case .character(let character) = key, let digit = Int(String(character)) else { return idle }
            return idle + [.send(.digit(digit))]
        case .delete?: return idle + [.send(.delete)]
        case .cancel?: return idle + [.cancel]
        case .press?: return idle + press(selected)
        case .move?: selected = KeypadView.move(selected, key)
        case .help?: chrome.openHelp(title: "passcode: keys", table: Self.keys)
        case nil: break
        }
        return idle
    }

    func press(_ slot: Int) -> [Command] {
        switch KeypadView.slots[slot] {
        case .digit(let position): [.send(.digit(machine.layout[position]))]
        case .cancel: [.cancel]
        case .delete: [.send(.delete)]
        }
    }

    /// `--idle-timeout`: a new timer after every key; only the newest one can end the screen.
    mutating func restartIdleTimer() -> [Command] {
        guard gate.idleTimeout != nil else { return [] }
        idleToken += 1
        return [.idleTimer(token: idleToken)]
    }
}
