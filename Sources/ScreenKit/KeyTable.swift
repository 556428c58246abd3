/// A screen's keys: which keys do what, the words the help overlay (`?`) shows for them, and
/// the few the footer shows (as lazygit's `DisplayOnScreen`). The same table dispatches the
/// keys, writes the help and the footer, so none of them can drift from the others.
public struct KeyTable<Action: Sendable & Equatable>: Sendable {
    public struct Binding: Sendable {
        public let keys: [KeyPress]
        public let label: String
        public let action: Action
        /// The footer's word for it (`Enter open`), when the footer shows it.
        public let hint: String?
        /// How the help and the footer name the keys, where listing them would not do (`0–9`).
        public let shownAs: String?

        public init(_ keys: [KeyPress], _ label: String, _ action: Action, hint: String? = nil, shownAs: String? = nil) {
            self.keys = keys
            self.label = label
            self.action = action
            self.hint = hint
            self.shownAs = shownAs
        }
    }

    public private(set) var bindings: [Binding] = []

    public init(_ bindings: [Binding]) { self.bindings = bindings }

    public init(_ bindings: [(keys: [KeyPress], label: String, action: Action)]) {
        self.bindings = bindings.map { Binding($0.keys, $0.label, $0.action) }
    }

    /// The footer's hints, in the table's order: the first key's short name and the hint.
    public var hints: [String] { hints() }

    /// The footer's hints for a screen's state: only the bindings whose action `isEnabled`
    /// accepts, each with `hint`'s word for it where the state gives one (`Esc all posts` in
    /// search results), else the table's. Every footer, in every mode, is made here.
    public func hints(where isEnabled: (Action) -> Bool = { _ in true }, hint: (Action) -> String? = { _ in nil }) -> [String] {
        bindings.compactMap { binding in
            guard isEnabled(binding.action), let word = hint(binding.action) ?? binding.hint else { return nil }
            return (binding.shownAs ?? Self.shortName(binding.keys[0])) + " " + word
        }
    }

    /// A key's name in the footer, where a hint has a few columns: `Bksp` for Backspace.
    static func shortName(_ key: KeyPress) -> String { key == .backspace ? "Bksp" : display(key) }

    /// The action bound to `key`, if any.
    public func action(for key: KeyPress) -> Action? {
        bindings.first { $0.keys.contains(key) }?.action
    }

    /// What a key does in a screen's state: its action; or nothing now, and why, where the
    /// state disables its binding (as lazygit's disabled reasons: `R: a sync is running`);
    /// or nothing, unbound.
    public enum Press: Sendable, Equatable {
        case action(Action)
        case disabled(String)
        case unbound
    }

    /// `key` in a state where `disabled` gives the reason a binding does nothing now (nil:
    /// enabled). The one test of a binding's state, for what it does and what help says.
    public func press(_ key: KeyPress, disabled: (Action) -> String?) -> Press {
        guard let binding = bindings.first(where: { $0.keys.contains(key) }) else { return .unbound }
        if let reason = disabled(binding.action) { return .disabled(Self.display(key) + ": " + reason) }
        return .action(binding.action)
    }

    /// The help overlay's lines: the keys, then what they do (and, for a binding disabled now,
    /// why it does nothing).
    public func helpLines(disabled: (Action) -> String? = { _ in nil }) -> [(keys: String, label: String)] {
        bindings.map { binding in
            let label = disabled(binding.action).map { binding.label + " (not now: " + $0 + ")" } ?? binding.label
            return (binding.shownAs ?? binding.keys.map(Self.display).joined(separator: " "), label)
        }
    }

    static func display(_ key: KeyPress) -> String {
        switch key {
        case .up: "↑"
        case .down: "↓"
        case .left: "←"
        case .right: "→"
        default: key.name
        }
    }
}

/// The keys every list moves with (DESIGN.md, "Screens"): ↑/↓ or k/j, PgUp/PgDn, Ctrl-U/Ctrl-D,
/// Home/End (and g/G), and the mouse wheel.
public enum Motion: Sendable, Equatable {
    case up, down, pageUp, pageDown, halfPageUp, halfPageDown, first, last

    public static let bindings: [(keys: [KeyPress], label: String, action: Motion)] = [
        ([.up, .character("k"), .wheelUp], "move up", .up),
        ([.down, .character("j"), .wheelDown], "move down", .down),
        ([.pageUp, .character("b")], "page up", .pageUp),
        ([.pageDown, .character(" ")], "page down", .pageDown),
        ([.control("u")], "half a page up", .halfPageUp),
        ([.control("d")], "half a page down", .halfPageDown),
        ([.home, .character("g")], "first", .first),
        ([.end, .character("G")], "last", .last),
    ]

    static let table = KeyTable(bindings)

    public static func of(_ key: KeyPress) -> Motion? { table.action(for: key) }

    /// Where a position moves in `count` rows of which `page` are visible.
    public func apply(to position: Int, count: Int, page: Int) -> Int {
        guard count > 0 else { return 0 }
        let page = max(page, 1)
        let target: Int
        switch self {
        case .up: target = position - 1
        case .down: target = position + 1
        case .pageUp: target = position - page
        case .pageDown: target = position + page
        case .halfPageUp: target = position - max(page / 2, 1)
        case .halfPageDown: target = position + max(page / 2, 1)
        case .first: target = 0
        case .last: target = count - 1
        }
        return min(max(target, 0), count - 1)
    }
}
