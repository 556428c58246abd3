import ScreenKit
import ToolboxKit

/// `condtest ui`: the Rollout app in a terminal. The first screen lists the conditions' names
/// (`/` filters); Enter opens a `ConditionTester` on the second. Pure state: keys and
/// arriving data change it, `Command`s ask for the network and the case file.
public struct ConditionBrowser: ScreenProgram {
    public enum Command: ScreenCommand, Equatable {
        case loadList
        case loadCondition(id: String)
        /// Back on the list: a condition still loading is not waited for.
        case stopLoading
        case appendCase(line: String, path: String)

        public var policy: CommandPolicy {
            switch self {
            case .loadList: .latest("list")
            case .loadCondition, .stopLoading: .latest("condition")
            case .appendCase: .serial("cases")
            }
        }
    }

    public enum Message: Sendable, Equatable {
        case list(Result<[ConditionSummary], ToolError>)
        case condition(id: String, Result<ConditionRecord, ToolError>)
        case appended(Result<String, ToolError>)
    }

    enum ListAction: Sendable, Equatable { case open, filter, reload, help, quit, clear, motion(Motion) }
    enum TesterAction: Sendable, Equatable { case next, previous, test, edit, append, reload, help, back }

    static let listKeys = KeyTable<ListAction>(
        Motion.bindings.map { ($0.keys, $0.label, ListAction.motion($0.action)) } + [
            ([.enter, .character("l"), .right], "open the condition", .open),
            ([.character("/")], "filter by name (Enter keeps it, Esc clears it)", .filter),
            ([.character("r")], "reload the list", .reload),
            ([.character("?")], "this help", .help),
            ([.escape], "clear the filter (nothing else on this first screen)", .clear),
            ([.character("q")], "quit", .quit),
        ])
    static let testerKeys = KeyTable<TesterAction>([
        ([.tab, .down], "next field or button", .next),
        ([.backTab, .up], "previous field or button", .previous),
        ([.enter], "test: result and explain tree", .test),
        ([.left, .right, .home, .end], "move in a field (letters are text)", .edit),
        ([.backspace, .delete, .control("u"), .control("w"), .control("k")], "erase a character, to the start, a word, to the end", .edit),
        ([.character("a")], "on the button: append the case to --cases", .append),
        ([.character("r")], "on the button: reload the condition", .reload),
        ([.character("?")], "on the button: this help", .help),
        ([.escape, .character("q")], "back to the list (q on the button)", .back),
    ])

    public private(set) var list = ListView()
    public private(set) var summaries: [ConditionSummary] = []
    public private(set) var tester: ConditionTester?
    public private(set) var status = StatusLine()
    public private(set) var showsHelp = false
    public private(set) var outcome: Int32?
    public let casesPath: String?
    private var loadingList = true
    private var notice: String?
    private var frame = 0
    private var listRect = Rect(row: 0, column: 0, rows: 0, columns: 0)

    public init(server: String, casesPath: String?) {
        self.casesPath = casesPath
        status.server = server
    }

    public var isBusy: Bool { loadingList || tester?.load == .loading }

    public mutating func start() -> [Command] { [.loadList] }

    public mutating func tick() { frame += 1 }

    public mutating func handle(_ key: KeyPress) -> [Command] {
        if showsHelp {
            showsHelp = false
            return []
        }
        notice = nil
        if tester != nil { return handleTester(key) }
        if list.isFiltering || key == .character("/") {
            _ = list.handle(key)
            return []
        }
        if case .click(let row, _) = key {
            if list.click(row: row, in: listRect) { return open() }
            return []
        }
        switch Self.listKeys.action(for: key) {
        case .motion(let motion)?: list.move(motion)
        case .open?: return open()
        case .reload?:
            loadingList = true
            return [.loadList]
        case .help?: showsHelp = true
        case .quit?: outcome = 0
        case .clear?: _ = list.clearFilter()
        case .filter?, nil: break
        }
        return []
    }

    private mutating func open() -> [Command] {
        guard let index = list.selection else { return [] }
        let summary = summaries[index]
        tester = ConditionTester(summary: summary)
        return [.loadCondition(id: summary.id)]
    }

    private mutating func handleTester(_ key: KeyPress) -> [Command] {
        guard var tester else { return [] }
        let action = tester.handle(key)
        self.tester = tester
        switch action {
        case .handled: return []
        case .appendCase: return appendCase(tester)
        case .notMine:
            // Letters are text in a field: r, ? and q act only on the button (or with no fields).
            let onButton = tester.record == nil || tester.isOnButton
            switch Self.testerKeys.action(for: key) {
            case .back? where key == .escape || onButton:
                self.tester = nil
                if tester.load == .loading { return [.stopLoading] }
            case .reload? where onButton:
                self.tester?.reloading()
                return [.loadCondition(id: tester.summary.id)]
            case .help? where onButton: showsHelp = true
            default: break
            }
            return []
        }
    }

    private mutating func appendCase(_ tester: ConditionTester) -> [Command] {
        guard let casesPath else {
            notice = "give --cases FILE to collect cases"
            return []
        }
        guard let result = tester.result else { return [] }
        do {
            let line = try CaseFileLine.line(conditionID: tester.summary.id, arguments: tester.arguments, expect: result)
            return [.appendCase(line: line, path: casesPath)]
        } catch {
            status.error = error.brief
            return []
        }
    }

    public mutating func receive(_ message: Message) -> [Command] {
        switch message {
        case .list(.success(let summaries)):
            loadingList = false
            self.summaries = summaries
            list.setSections([ListView.Section(items: summaries.map(\.name))])
            status.online = true
            status.error = nil
        case .list(.failure(let failure)):
            loadingList = false
            status.online = !(failure.exitStatus == .unavailable)
            status.error = failure.brief + " (r retries)"
        case .condition(let id, let result):
            guard var tester, tester.summary.id == id else { return [] }
            switch result {
            case .success(let record): tester.loaded(record)
            case .failure(let failure):
                tester.failed(failure.message)
                if (failure.exitStatus == .unavailable) { status.online = false }
            }
            self.tester = tester
        case .appended(.success(let line)):
            notice = "appended: " + line
        case .appended(.failure(let failure)):
            status.error = failure.brief
        }
        return []
    }

    public mutating func draw(into canvas: inout Canvas) {
        let body = Rect(row: 1, column: 1, rows: canvas.rows - 3, columns: canvas.columns - 2)
        if let tester {
            canvas.put(" condtest › " + tester.summary.name, row: 0, column: 0, style: .heading)
            var tester = tester
            tester.draw(into: &canvas, rect: body, tick: frame)
            self.tester = tester
        } else {
            canvas.put(" condtest › conditions", row: 0, column: 0, style: .heading)
            listRect = Rect(row: 1, column: 0, rows: canvas.rows - 3, columns: canvas.columns)
            if loadingList && summaries.isEmpty {
                canvas.put(" " + Spinner.frame(frame) + " loading the conditions…", row: 1, column: 0)
            } else {
                list.draw(into: &canvas, rect: listRect)
            }
        }
        let hint = tester == nil ? "Enter open · / filter · r reload · q quit" : "Tab move · Enter test · a append · Esc back"
        canvas.put(" " + (notice ?? hint), row: canvas.rows - 2, column: 0, width: canvas.columns, style: .dim)
        status.counts = list.shownCount == list.totalCount ? "\(list.totalCount) conditions"
            : "\(list.shownCount) of \(list.totalCount) conditions"
        status.loading = isBusy ? "loading" : nil
        status.draw(into: &canvas, frame: frame)
        if showsHelp {
            let lines = tester == nil ? Self.listKeys.helpLines : Self.testerKeys.helpLines
            HelpOverlay.draw(into: &canvas, title: tester == nil ? "conditions: keys" : "condition: keys", lines: lines)
        }
    }
}
