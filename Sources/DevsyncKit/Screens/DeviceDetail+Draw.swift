import FoundationEssentials
import ScreenKit
import ToolboxKit

extension DeviceDetail {
    /// Rows the fields take above the date field's line.
    var fieldRows: Int {
        guard let change = device.change else { return 4 }
        return 5 + (change.serverChange == nil ? 0 : 1)
    }

    /// Rows the bad date's message takes (wrapped, at most three).
    var messageRows: [String] {
        message.map { Array(TextPane.wrap($0, width: max(rect.columns, 10)).prefix(3)) } ?? []
    }

    /// The history's place: what the fields, the date line and the message leave.
    var historyRect: Rect {
        let top = rect.row + fieldRows + 1 + (dateField != nil || confirmingDiscard ? 1 : 0) + messageRows.count + 1
        return Rect(row: top, column: rect.column, rows: rect.row + rect.rows - top, columns: rect.columns)
    }

    /// History rows in view.
    var historyPage: Int { max(historyRect.rows - 2, 1) }

    /// The fields, the line for the date field or a message, then the history in what is left.
    public func draw(into canvas: inout Canvas) {
        var row = rect.row
        let labelWidth = 13
        func field(_ label: String, _ value: String, style: Style = .plain) {
            guard row < rect.row + rect.rows else { return }
            canvas.put(label, row: row, column: rect.column, width: labelWidth, style: .dim)
            canvas.put(value, row: row, column: rect.column + labelWidth, width: rect.columns - labelWidth, style: style)
            row += 1
        }
        field("type", device.type.displayName)
        field("meter point", device.meterPointDescription)
        field("server has", DeviceLine.date(device.serverDate))
        if let change = device.change {
            field("pending", (change.isDamaged ? "damaged in the store: record the date again (i or c) or discard it (d)"
                                               : DeviceLine.date(change.installationDate)) + " · recorded " + DateDisplay.human(change.recordedAt),
                  style: change.isDamaged ? Style(bold: true, color: .red) : .bold)
            // A damaged change is never sent: its state says so, not "pending".
            var state = change.isDamaged ? "damaged: its stored date cannot be read; record it again or discard it" : change.state.rawValue
            if change.attempts > 0 { state += " · \(change.attempts) tr\(change.attempts == 1 ? "y" : "ies")" }
            if let error = change.lastError { state += " · " + error }
            field("state", state, style: change.state == .rejected || change.isDamaged ? Style(bold: true, color: .red) : .plain)
            if let server = change.serverChange {
                field("conflict", "the server now has " + DeviceLine.date(server.installationDate)
                      + "; m keeps yours, t takes theirs", style: Style(bold: true, color: .yellow))
            }
        } else {
            field("pending", "none: the server has what was recorded here", style: .dim)
        }
        row += 1
        if let dateField, row < rect.row + rect.rows {
            dateField.draw(into: &canvas, row: row, column: rect.column, width: rect.columns, focused: true)
            row += 1
        } else if confirmingDiscard {
            canvas.put("discard the pending change to \(device.id)? y discards, any other key keeps it", row: row,
                       column: rect.column, width: rect.columns, style: Style(bold: true, color: .yellow))
            row += 1
        }
        // Wrapped, not cut: a bad date's message says which forms are taken.
        for line in messageRows where row < rect.row + rect.rows {
            canvas.put(line, row: row, column: rect.column, width: rect.columns, style: Style(bold: true, color: .red))
            row += 1
        }
        drawHistory(into: &canvas, rect: historyRect)
    }

    private func drawHistory(into canvas: inout Canvas, rect: Rect) {
        guard rect.rows >= 2 else { return }
        guard let history else {
            canvas.put("history: loading…", row: rect.row, column: rect.column, width: rect.columns, style: .dim)
            return
        }
        canvas.put("history (\(history.count))", row: rect.row, column: rect.column, width: rect.columns, style: .heading)
        let showsOld = rect.columns >= 90
        let columns: [(String, Int)] = [("TIME", 16), ("EVENT", 10)] + (showsOld ? [("OLD", 16)] : []) + [("NEW", 16)]
        var x = rect.column
        for (name, width) in columns {
            canvas.put(name, row: rect.row + 1, column: x, width: width, style: .dim)
            x += width + 2
        }
        canvas.put("DETAIL", row: rect.row + 1, column: x, width: max(rect.column + rect.columns - x, 0), style: .dim)
        for (offset, event) in history.dropFirst(historyTop).prefix(historyPage).enumerated() {
            let y = rect.row + 2 + offset
            let values = [DateDisplay.human(event.at), event.event.rawValue] + (showsOld ? [value(event.oldValue)] : [])
                + [value(event.newValue)]
            var x = rect.column
            for ((_, width), value) in zip(columns, values) {
                canvas.put(value, row: y, column: x, width: width)
                x += width + 2
            }
            canvas.put(event.detail, row: y, column: x, width: max(rect.column + rect.columns - x, 0), style: .dim)
        }
        if history.isEmpty { canvas.put("nothing recorded yet", row: rect.row + 2, column: rect.column, width: rect.columns, style: .dim) }
    }

    private func value(_ date: Date?) -> String { date.map(DateDisplay.human) ?? "-" }
}
