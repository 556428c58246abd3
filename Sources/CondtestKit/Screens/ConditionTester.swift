import ScreenKit
import ToolboxKit

/// The Rollout app's second screen: one condition, a labelled field per argument, a Test
/// button and the result label, and below them the `explain` tree of the last test. The
/// result follows every edit; Enter tests (and keeps the tree); `a` on the button appends the
/// arguments and result as a `condtest test` case line. Where each part sits follows from
/// the rect `layout` gave and the condition loaded, so keys and the frame always agree.
public struct ConditionTester: Sendable {
    public enum Load: Sendable, Equatable {
        case loading
        case failed(String)
        case loaded(ConditionRecord)
    }

    /// What the tester asks of the browser besides the shared replies.
    public enum Request: Sendable, Equatable {
        case appendCase
        case reload
    }

    enum Action: Sendable, Equatable { case next, previous, test, edit, append, reload, help, back }

    /// Letters are text in a field: `a`, `r`, `?` and `q` act on the button (or with no field).
    static let keys = KeyTable<Action>([
        .init([.tab, .down], "next field or button", .next, hint: "move"),
        .init([.backTab, .up], "previous field or button", .previous),
        .init([.enter], "test: result and explain tree", .test, hint: "test"),
        .init([.left, .right, .home, .end], "move in a field (letters are text)", .edit),
        .init([.backspace, .delete], "erase the character before, under the cursor", .edit),
        .init([.control("u"), .control("w"), .control("k")], "erase to the start, the word before, to the end", .edit),
        .init([.character("a")], "on the button: append the case to --cases", .append, hint: "append"),
        .init([.character("r")], "on the button: reload the condition", .reload),
        .init([.character("?"), .function(1)], "this help (? on the button, F1 anywhere)", .help),
        .init([.escape, .character("q")], "back to the list (q on the button)", .back, hint: "back"),
    ])

    public let summary: ConditionSummary
    public private(set) var load = Load.loading
    public private(set) var fields: [TextField] = []
    /// 0..<fields.count: a field; fields.count: the Test button.
    public private(set) var focus = 0
    /// The result for the arguments as typed now, once something was typed or tested: a
    /// condition just opened shows none (its empty arguments are not a test anyone made).
    public private(set) var result: Bool?
    /// The explanation of the last test (Enter), and the arguments it was made with.
    public private(set) var tested: (arguments: [String], explanation: Explanation)?
    private(set) var tree = TextPane()
    private(set) var rect = Rect(row: 1, column: 1, rows: 21, columns: 78)

    public init(summary: ConditionSummary) { self.summary = summary }

    public var record: ConditionRecord? {
        if case .loaded(let record) = load { return record }
        return nil
    }

    public var arguments: [String] { fields.map(\.text) }
    public var isOnButton: Bool { focus == fields.count }
    /// The footer: the table's hints once the condition is here; until then what works.
    var hints: [String] {
        guard record == nil else { return Self.keys.hints }
        return Self.keys.hints(where: { $0 == .reload || $0 == .back }, hint: { $0 == .reload ? "reload" : nil })
    }

    /// Where help opens from: `?` is text in a field.
    var helpHint: String { record != nil && !isOnButton ? "F1 help" : "? help" }

    // MARK: Layout: rows from the top of the rect, all derived from it and the record.

    /// The condition in the text syntax, wrapped to the width, at most four rows: made when
    /// the rect or the record changes, not at every frame.
    private(set) var conditionRows: [String] = []

    var fieldRow: Int { rect.row + 4 + conditionRows.count }
    var buttonRect: Rect {
        Rect(row: fieldRow + max(fields.count, 1) + 1, column: rect.column, rows: 1, columns: Button("Test").width)
    }
    /// The explain tree, under its heading.
    var treeRect: Rect {
        let top = buttonRect.row + 3
        return Rect(row: top, column: rect.column + 1, rows: max(rect.row + rect.rows - top, 0), columns: max(rect.columns - 1, 0))
    }

    public mutating func layout(_ rect: Rect) {
        self.rect = rect
        layOutParts()
    }

    /// The condition's rows and the tree's rect, for the rect and the record as they are now.
    private mutating func layOutParts() {
        conditionRows = record.map { Array(TextPane.wrap(TextSyntax.format($0.condition), width: rect.columns).prefix(4)) } ?? []
        tree.layout(treeRect)
    }

    // MARK: Data

    public mutating func loaded(_ record: ConditionRecord) {
        load = .loaded(record)
        fields = (0..<record.argumentCount).map { TextField(label: "arg\($0 + 1)") }
        focus = 0
        result = nil
        tested = nil
        layOutParts()
    }

    public mutating func failed(_ message: String) {
        load = .failed(message)
        fields = []
        focus = 0
        layOutParts()
    }

    public mutating func reloading() {
        load = .loading
        fields = []
        focus = 0
        result = nil
        tested = nil
        layOutParts()
    }

    // MARK: Keys

    public mutating func handle(_ key: KeyPress) -> SubScreenReply<Request> {
        let action = Self.keys.action(for: key)
        let onButton = record == nil || isOnButton
        switch action {
        case .back? where key == .escape || onButton: return .back
        case .help? where key != .character("?") || onButton: return .help
        case .reload? where onButton: return .request(.reload)
        default: break
        }
        guard record != nil else { return .ignored }
        switch action {
        case .next?: focus = (focus + 1) % (fields.count + 1)
        case .previous?: focus = (focus + fields.count) % (fields.count + 1)
        case .test?: test()
        case .append? where onButton: return .request(.appendCase)
        default:
            if case .click(let row, let column) = key { return click(row: row, column: column) }
            if focus < fields.count {
                guard fields[focus].handle(key) else { return .ignored }
                evaluate()
                return .handled
            }
            return tree.handle(key) ? .handled : .ignored
        }
        return .handled
    }

    private mutating func click(row: Int, column: Int) -> SubScreenReply<Request> {
        if buttonRect.contains(row: row, column: column) {
            focus = fields.count
            test()
        } else if (fieldRow..<fieldRow + fields.count).contains(row) {
            focus = row - fieldRow
        }
        return .handled
    }

    /// Tests the arguments as typed: the result label and the explanation tree.
    public mutating func test() {
        guard let record else { return }
        let explanation = Explanation.of(record.condition, arguments: arguments)
        result = explanation.result
        tested = (arguments, explanation)
        tree.lines = explanation.render().split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.isEmpty }.map { line in
            let text = String(line)
            let style: Style = text.hasSuffix(": true") ? .result(true) : text.hasSuffix(": false") ? .result(false)
                : text.hasSuffix(": skipped") ? .result(nil) : .plain
            return TextPane.Line(text, style: style)
        }
    }

    private mutating func evaluate() {
        guard let record else { return }
        result = Explanation.of(record.condition, arguments: arguments).result
    }

    // MARK: Draw

    public func draw(into canvas: inout Canvas, tick: Int) {
        canvas.put(summary.name, row: rect.row, column: rect.column, width: rect.columns, style: .heading)
        canvas.put(summary.id, row: rect.row + 1, column: rect.column, width: rect.columns, style: .dim)
        let row = rect.row + 3
        switch load {
        case .loading:
            canvas.put(Spinner.frame(tick) + " loading…", row: row, column: rect.column, width: rect.columns)
            return
        case .failed(let message):
            canvas.put("error: " + message, row: row, column: rect.column, width: rect.columns, style: Style(bold: true, color: .red))
            return
        case .loaded:
            for (offset, line) in conditionRows.enumerated() {
                canvas.put(line, row: row + offset, column: rect.column, width: rect.columns)
            }
        }
        for index in fields.indices {
            fields[index].draw(into: &canvas, row: fieldRow + index, column: rect.column, width: rect.columns, focused: focus == index)
        }
        if fields.isEmpty {
            canvas.put("(this condition takes no arguments)", row: fieldRow, column: rect.column, width: rect.columns, style: .dim)
        }
        let button = buttonRect
        Button("Test").draw(into: &canvas, row: button.row, column: button.column, focused: isOnButton)
        canvas.put("result: ", row: button.row, column: rect.column + button.columns + 2)
        canvas.put(result.map { $0 ? "true" : "false" } ?? "not tested", row: button.row, column: rect.column + button.columns + 10,
                   width: rect.columns - button.columns - 10, style: result == nil ? .dim : .result(result))
        guard tested != nil, button.row + 2 < rect.row + rect.rows else { return }
        canvas.put("explain:", row: button.row + 2, column: rect.column, width: rect.columns, style: .heading)
        tree.draw(into: &canvas)
    }
}
