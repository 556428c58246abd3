import ScreenKit
import ToolboxKit

extension ConditionBrowser {
    public func draw(into canvas: inout Canvas) {
        var chrome = self.chrome
        // A filter in force first: a narrow status line keeps it before the counts.
        chrome.status.counts = list.filterLabel.map { "\($0) · \(list.shownCount) of \(list.totalCount) conditions" }
            ?? "\(list.totalCount) conditions"
        chrome.status.loading = isBusy ? "loading" : nil
        if let tester {
            tester.draw(into: &canvas, tick: chrome.tick)
            chrome.draw(into: &canvas, title: "condtest › " + tester.summary.name, hints: tester.hints,
                        helpHint: tester.helpHint)
        } else {
            if loadingList && summaries.isEmpty {
                canvas.put(" " + Spinner.frame(chrome.tick) + " loading the conditions…", row: chrome.body.row, column: 0)
            } else {
                list.draw(into: &canvas)
            }
            chrome.draw(into: &canvas, title: "condtest › conditions", hints: list.isFiltering ? ListView.filterHints : Self.listKeys.hints,
                        helpHint: list.isFiltering ? nil : "? help")
        }
    }
}
