import ScreenKit
import ToolboxKit

/// The Rollout app's second screen: one condition, a labelled field per argument, a Test
/// button and the result label, and below them the `explain` tree of the last test. The
/// result follows every edit; Enter tests (and keeps the tree); `a` on the button appends the
/// arguments and result as a `condtest test` case line.
public struct ConditionTester: Sendable {
    public enum Load: Sendable, Equatable {
        case loading
        case failed(String)
        case loaded(ConditionRecord)
    }

    public let summary: ConditionSummary
    public private(set) var load = Load.loading
    public private(set) var fields: [TextField] = []
    /// 0..<fields.count: a field; fields.count: the Test button.
    public private(set) var focus = 0
    /// The result for the arguments as typed now.
    public private(set) var result: Bool?
    /// The explanation of the last test (Enter), and the arguments it was made with.
    public private(set) var tested: (arguments: [String], explanation: Explanation)?
    var tree = TextPane()
    var buttonRect = Rect(row: 0, column: 0, rows: 0, columns: 0)
    var fieldRows: [Int] = []

    public init(summary: ConditionSummary) { self.summary = summary }

    public var record: ConditionRecord? {
        if case .loaded(let record) = load { return record }
        return nil
    }

    public var arguments: [String] { fields.map(\.text) }
    public var isOnButton: Bool { focus == fields.count }

    public mutating func loaded(_ record: ConditionRecord) {
        load = .loaded(record)
        fields = (0..<record.argumentCount).map { TextField(label: "arg\($0 + 1)") }
        focus = 0
        evaluate()
    }

    public mutating func failed(_ message: String) {
        load = .failed(message)
        fields = []
        focus = 0
    }

    public mutating func reloading() {
        load = .loading
        fields = []
        focus = 0
        result = nil
        tested = nil
    }

    /// What the tester did with a key: handled it, asks for the case to be appended, or left
    /// it to the browser (Esc; q, r and ? on the button).
    public enum Action: Sendable, Equatable {
        case handled
        case appendCase
        case notMine
    }

    public mutating func handle(_ key: KeyPress) -> Action {
        guard record != nil else { return .notMine }
        switch key {
        case .tab, .down: focus = (focus + 1) % (fields.count + 1)
        case .backTab, .up: focus = (focus + fields.count) % (fields.count + 1)
        case .enter: test()
        case .click(let row, let column):
            if buttonRect.contains(row: row, column: column) {
                focus = fields.count
                test()
            } else if let index = fieldRows.firstIndex(of: row) {
                focus = index
            }
        default:
            if focus < fields.count {
                guard fields[focus].handle(key) else { return .notMine }
                evaluate()
                return .handled
            }
            if key == .character("a") { return .appendCase }
            return tree.handle(key) ? .handled : .notMine
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

    public mutating func draw(into canvas: inout Canvas, rect: Rect, tick: Int) {
        var row = rect.row
        canvas.put(summary.name, row: row, column: rect.column, width: rect.columns, style: .heading)
        row += 1
        canvas.put(summary.id, row: row, column: rect.column, width: rect.columns, style: .dim)
        row += 2
        switch load {
        case .loading:
            canvas.put(Spinner.frame(tick) + " loading…", row: row, column: rect.column, width: rect.columns)
            return
        case .failed(let message):
            canvas.put("error: " + message, row: row, column: rect.column, width: rect.columns, style: Style(bold: true, color: .red))
            canvas.put("r retries · Esc goes back", row: row + 2, column: rect.column, width: rect.columns, style: .dim)
            return
        case .loaded(let record):
            for line in TextPane.wrap(TextSyntax.format(record.condition), width: rect.columns).prefix(4) {
                canvas.put(line, row: row, column: rect.column, width: rect.columns)
                row += 1
            }
        }
        row += 1
        fieldRows = []
        for index in fields.indices {
            fieldRows.append(row)
            fields[index].draw(into: &canvas, row: row, column: rect.column, width: rect.columns, focused: focus == index)
            row += 1
        }
        if fields.isEmpty {
            canvas.put("(this condition takes no arguments)", row: row, column: rect.column, width: rect.columns, style: .dim)
            row += 1
        }
        row += 1
        buttonRect = Button("Test").draw(into: &canvas, row: row, column: rect.column, focused: isOnButton)
        let label = result.map { $0 ? "true" : "false" } ?? "–"
        canvas.put("result: ", row: row, column: rect.column + buttonRect.columns + 2)
        canvas.put(label, row: row, column: rect.column + buttonRect.columns + 10, style: .result(result))
        row += 2
        let bottom = rect.row + rect.rows
        guard tested != nil, row < bottom else { return }
        canvas.put("explain:", row: row, column: rect.column, width: rect.columns, style: .heading)
        tree.draw(into: &canvas, rect: Rect(row: row + 1, column: rect.column + 1, rows: bottom - row - 1, columns: rect.columns - 1))
    }
}
