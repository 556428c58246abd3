import ScreenKit
import ToolboxKit

extension ConditionBrowser {
    enum ListAction: Sendable, Equatable { case open, filter, reload, help, quit, clear, motion(Motion) }

    static let listKeys = KeyTable<ListAction>(
        Motion.bindings.map { .init($0.keys, $0.label, ListAction.motion($0.action)) } + [
            .init([.enter, .character("l"), .right], "open the condition", .open, hint: "open"),
            .init([.character("/")], "filter by name as you type (Enter keeps it, Esc clears it)", .filter, hint: "filter"),
            .init([.character("r")], "reload the list", .reload, hint: "reload"),
            .init([.character("?"), .function(1)], "this help", .help),
            .init([.escape], "clear the filter (nothing else on this first screen)", .clear),
            .init([.character("q")], "quit", .quit, hint: "quit"),
        ])

    public mutating func handle(_ key: KeyPress) -> [Command] {
        if chrome.takes(key) { return [] }
        if tester != nil { return handleTester(key) }
        if list.isFiltering || key == .character("/") {
            _ = list.handle(key)
            return []
        }
        if case .click(let row, _) = key {
            return list.click(row: row) ? open() : []
        }
        switch Self.listKeys.action(for: key) {
        case .motion(let motion)?: list.move(motion)
        case .open?: return open()
        case .reload?:
            loadingList = true
            return [.loadList]
        case .help?: chrome.openHelp(title: "conditions: keys", table: Self.listKeys)
        case .quit?: outcome = 0
        case .clear?: _ = list.clearFilter()
        case .filter?, nil: break
        }
        return []
    }

    private mutating func open() -> [Command] {
        guard let index = list.selection else { return [] }
        let summary = summaries[index]
        var tester = ConditionTester(summary: summary)
        tester.layout(chrome.inset)
        self.tester = tester
        return [.loadCondition(id: summary.id)]
    }

    private mutating func handleTester(_ key: KeyPress) -> [Command] {
        guard var tester else { return [] }
        let reply = tester.handle(key)
        self.tester = tester
        switch reply {
        case .handled, .ignored: return []
        case .back:
            self.tester = nil
            return tester.load == .loading ? [.stopLoading] : []
        case .help: chrome.openHelp(title: "condition: keys", table: ConditionTester.keys)
        case .quit: outcome = 0
        case .request(.reload):
            self.tester?.reloading()
            return [.loadCondition(id: tester.summary.id)]
        case .request(.appendCase): return appendCase(tester)
        }
        return []
    }

    private mutating func appendCase(_ tester: ConditionTester) -> [Command] {
        guard let casesPath else {
            chrome.notice = "give --cases FILE to collect cases"
            return []
        }
        guard let result = tester.result else {
            chrome.notice = "test the condition first (Enter on Test)"
            return []
        }
        do {
            let line = try CaseFileLine.line(conditionID: tester.summary.id, arguments: tester.arguments, expect: result)
            return [.appendCase(line: line, path: casesPath)]
        } catch {
            chrome.status.error = error.brief
            return []
        }
    }
}
