import FoundationEssentials
import ScreenKit
import ToolboxKit

/// The three screens drawn: a title line with the two tabs, the body, a line for hints and
/// notices, and the status line.
extension DeviceBrowser {
    public func draw(into canvas: inout Canvas) {
        var chrome = self.chrome
        chrome.status.counts = counts
        if sync.board.running {
            let progress = sync.board.progress
            chrome.status.loading = "syncing \(progress.done)/\(progress.total)"
        } else {
            chrome.status.loading = pulling ? "pulling" : loading ? "reading" : nil
        }
        let body = chrome.body
        if let detail {
            // The list's notice (a pull's count) is not the detail's: its footer shows its keys.
            chrome.notice = nil
            detail.draw(into: &canvas)
            let typing = detail.dateField != nil
            chrome.draw(into: &canvas, title: "devsync › " + detail.device.id,
                        hints: typing ? DeviceDetail.dateHints : DeviceDetail.keys.hints, helpHint: typing ? nil : "? help")
            return
        }
        if tab == .devices {
            deviceTab.draw(into: &canvas, body: body, loading: loading, pulling: pulling, tick: chrome.tick)
        } else {
            sync.draw(into: &canvas, body: body, idWidth: deviceTab.idWidth, tick: chrome.tick)
        }
        let hints = tab == .devices ? deviceTab.hints : sync.hints
        let title = tab == .devices ? "devsync › devices" + (deviceTab.typeFilter.map { " · " + $0.displayName } ?? "") : "devsync › sync"
        chrome.draw(into: &canvas, title: title, right: tabs, hints: hints, helpHint: deviceTab.list.isFiltering ? nil : "? help")
    }

    /// The two tabs at the right of the title bar, the one shown reversed.
    private var tabs: [(text: String, style: Style)] {
        let pending = pendingCount > 0 ? " (\(pendingCount))" : ""
        return [(" Devices ", tab == .devices ? .selected : .dim), (" ", .plain), (" Sync" + pending + " ", tab == .sync ? .selected : .dim)]
    }

    /// Most needed first: a filter in force (what the list shows is not the whole), what
    /// waits to be sent, how fresh the list is, then the rest; the status line drops items
    /// from the end when it is narrow.
    private var counts: String {
        var items: [String] = []
        if tab == .devices, let filter = deviceTab.list.filterLabel { items += [filter, "\(deviceTab.list.shownCount) of \(deviceTotal) devices"] }
        items.append("\(pendingCount) pending")
        items.append(lastPull.map { "pulled " + DateDisplay.short($0, now: now()) } ?? "never pulled")
        if conflictCount > 0 { items.append("\(conflictCount) conflicts") }
        let filtered = tab == .devices && deviceTab.list.filterLabel != nil
        if !filtered {
            items.append(tab == .devices && deviceTab.list.shownCount != deviceTotal ? "\(deviceTab.list.shownCount) of \(deviceTotal) devices" : "\(deviceTotal) devices")
        }
        return items.joined(separator: " · ")
    }
}
