import FoundationEssentials
import ScreenKit
import ToolboxKit

/// The three screens drawn: a title line with the two tabs, the body, a line for hints and
/// notices, and the status line.
extension DeviceBrowser {
    public mutating func draw(into canvas: inout Canvas) {
        let body = Rect(row: 1, column: 0, rows: canvas.rows - 3, columns: canvas.columns)
        if var detail {
            canvas.put(" devsync › " + detail.device.id, row: 0, column: 0, style: .heading)
            detail.draw(into: &canvas, rect: Rect(row: 2, column: 1, rows: body.rows - 1, columns: body.columns - 2))
            self.detail = detail
        } else {
            drawTabs(into: &canvas)
            if tab == .devices { drawDevices(into: &canvas, body: body) } else { drawSync(into: &canvas, body: body) }
        }
        let hint: String
        if detail != nil {
            hint = detail?.dateField != nil ? "Enter records · Esc cancels · as devsync install --at: 2024-03-04 09:15, ISO 8601"
                : "i set date · c clear · d discard · ↑/↓ history · Esc back"
        } else if tab == .devices {
            hint = "Enter open · / filter · t type · Tab sync · S sync · R pull · q quit"
        } else {
            hint = board.running ? "Esc stops after the requests in flight · Tab devices" : "Enter sync · ↑ changes · Tab devices · q back"
        }
        canvas.put(" " + (notice ?? hint), row: canvas.rows - 2, column: 0, width: canvas.columns, style: notice == nil ? .dim : .bold)
        drawStatus(into: &canvas)
        if showsHelp {
            let (title, lines) = detail != nil ? ("device: keys", DeviceDetail.keys.helpLines)
                : tab == .devices ? ("devices: keys", Self.devicesKeys.helpLines) : ("sync: keys", Self.syncKeys.helpLines)
            HelpOverlay.draw(into: &canvas, title: title, lines: lines)
        }
    }

    private func drawTabs(into canvas: inout Canvas) {
        let title = tab == .devices ? " devsync › devices" + (typeFilter.map { " · " + $0.displayName } ?? "") : " devsync › sync"
        let pending = pendingCount
        let devicesLabel = " Devices "
        let syncLabel = " Sync" + (pending > 0 ? " (\(pending))" : "") + " "
        let tabsWidth = devicesLabel.count + syncLabel.count + 1
        canvas.put(title, row: 0, column: 0, width: max(canvas.columns - tabsWidth - 1, 0), style: .heading)
        let start = max(canvas.columns - tabsWidth, 0)
        let after = canvas.put(devicesLabel, row: 0, column: start, style: tab == .devices ? .selected : .dim)
        canvas.put(syncLabel, row: 0, column: after + 1, style: tab == .sync ? .selected : .dim)
    }

    private mutating func drawDevices(into canvas: inout Canvas, body: Rect) {
        canvas.put(DeviceLine.header(width: body.columns, idWidth: idWidth), row: body.row, column: 0, width: body.columns, style: .dim)
        listRect = Rect(row: body.row + 1, column: 0, rows: body.rows - 1, columns: body.columns)
        if loading && devices.isEmpty {
            canvas.put(" " + Spinner.frame(frame) + " reading the store…", row: listRect.row, column: 0)
            return
        }
        if devices.isEmpty {
            canvas.put(pulling ? " no devices in the store yet: pulling them from the server…"
                       : " no devices in the store: R pulls them from the server", row: listRect.row, column: 0,
                       width: body.columns, style: .dim)
            return
        }
        let shown = self.shown
        let idWidth = self.idWidth
        list.draw(into: &canvas, rect: listRect) { canvas, index, _, row, column, width in
            DeviceLine.draw(shown[index], into: &canvas, row: row, column: column, width: width, idWidth: idWidth)
        }
    }

    private mutating func drawSync(into canvas: inout Canvas, body: Rect) {
        let buttonRows = 3
        let dateColumn = 2 + idWidth + 2
        let stateColumn = dateColumn + DeviceLine.dateWidth + 2
        canvas.put("  ID", row: body.row, column: 0, width: dateColumn, style: .dim)
        canvas.put("LOCAL DATE", row: body.row, column: dateColumn, width: DeviceLine.dateWidth, style: .dim)
        canvas.put("STATE", row: body.row, column: stateColumn, style: .dim)
        let rowsRect = Rect(row: body.row + 1, column: 0, rows: body.rows - 2 - buttonRows, columns: body.columns)
        if board.rows.isEmpty {
            canvas.put(" nothing to sync: every change recorded here has reached the server", row: rowsRect.row, column: 0,
                       width: body.columns, style: .dim)
        } else {
            let rows = board.rows
            let idWidth = self.idWidth
            boardList.draw(into: &canvas, rect: rowsRect, focused: !onButton) { canvas, index, _, row, column, width in
                let entry = rows[index]
                let mark = if case .conflict = entry.state { "!" } else { " " }
                canvas.put(mark + " " + TextWidth.truncate(entry.id, to: idWidth), row: row, column: column, width: width)
                canvas.put(DeviceLine.date(entry.date), row: row, column: column + dateColumn, width: DeviceLine.dateWidth)
                let (text, style) = SyncBoard.describe(entry.state)
                canvas.put(text, row: row, column: column + stateColumn, width: max(width - stateColumn, 0), style: style)
            }
            if onButton { boardList.pageSize = rowsRect.rows }
        }
        drawButton(into: &canvas, row: body.row + body.rows - buttonRows - (board.summary == nil ? 0 : 1), columns: body.columns)
        if let summary = board.summary {
            canvas.put(" " + summary, row: body.row + body.rows - 1, column: 0, width: body.columns, style: .bold)
        }
    }

    /// The big Sync button: three rows, reversed while it has the focus.
    private func drawButton(into canvas: inout Canvas, row: Int, columns: Int) {
        let label = board.running ? (board.stopping ? "Stopping…" : Spinner.frame(frame) + " Syncing…") : "Sync"
        let width = min(max(columns / 3, 20), columns - 2)
        let box = Rect(row: row, column: max((columns - width) / 2, 0), rows: 3, columns: width)
        Frame.draw(into: &canvas, rect: box, title: "")
        let focused = onButton && !board.running
        if focused { canvas.fill(row: row + 1, column: box.column + 1, width: width - 2, style: .selected) }
        let text = focused ? "▶ " + label + " ◀" : label
        canvas.put(text, row: row + 1, column: box.column + max((width - TextWidth.of(text)) / 2, 1), width: width - 2,
                   style: focused ? Style(bold: true, reverse: true) : .bold)
    }

    private mutating func drawStatus(into canvas: inout Canvas) {
        // Most needed first: what waits to be sent, how fresh the list is, then the rest.
        var counts = "\(pendingCount) pending · " + (lastPull.map { "pulled " + DateDisplay.short($0, now: now()) } ?? "never pulled")
        if conflictCount > 0 { counts += " · \(conflictCount) conflicts" }
        counts += tab == .devices && list.shownCount != devices.count ? " · \(list.shownCount) of \(devices.count) devices"
            : " · \(devices.count) devices"
        status.counts = counts
        if board.running {
            let progress = board.progress
            status.loading = "syncing \(progress.done)/\(progress.total)"
        } else {
            status.loading = pulling ? "pulling" : loading ? "reading" : nil
        }
        status.draw(into: &canvas, frame: frame)
    }
}
