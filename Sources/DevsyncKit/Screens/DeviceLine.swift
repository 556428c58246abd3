import FoundationEssentials
import ScreenKit
import ToolboxKit

/// A device as the screens show it in a row: its mark, its id, its date (local time) or
/// "not installed", its type, its sync state, its meter point and its last error. The id,
/// date, type and state keep their width; the meter point takes what is left and is cut
/// first, then the type goes below 60 columns. The state shows from 100 columns and the last
/// error from 120, taking half of what the meter point had (issue 47: at 120x40 the table
/// used 60 columns).
enum DeviceLine {
    static let dateWidth = 16
    static let typeWidth = 10

    /// `!` a conflict with the server, `✗` rejected by it, `•` waiting to be synced.
    static func mark(_ device: Device) -> (String, Style) {
        guard let change = device.change else { return (" ", .plain) }
        if change.serverChange != nil { return ("!", Style(bold: true, color: .yellow)) }
        if change.state == .rejected || change.isDamaged { return ("✗", Style(bold: true, color: .red)) }
        return ("•", .bold)
    }

    static func date(_ date: Date?) -> String { date.map(DateDisplay.human) ?? "not installed" }

    /// What `/` matches: every field as shown.
    static func filterText(_ device: Device) -> String {
        [device.id, device.meterPointDescription, device.type.displayName, date(device.installationDate)].joined(separator: " ")
    }

    /// The width the id column takes: the longest id, within reason.
    static func idWidth(_ devices: [Device]) -> Int {
        min(max(devices.lazy.map { TextWidth.of($0.id) }.max() ?? 2, 2), 24)
    }

    static let stateWidth = 8

    static func showsType(width: Int, idWidth: Int) -> Bool {
        width - (2 + idWidth + 2 + dateWidth + 2 + typeWidth + 2) >= 12
    }

    static func showsState(width: Int) -> Bool { width >= 100 }

    /// Columns of the last error, from 120 columns: half of what the meter point would take.
    static func errorWidth(width: Int, idWidth: Int) -> Int {
        guard width >= 120 else { return 0 }
        let rest = width - (2 + idWidth + 2 + dateWidth + 2 + typeWidth + 2 + stateWidth + 2)
        return max(rest / 2 - 2, 0)
    }

    static func header(width: Int, idWidth: Int) -> String {
        var text = "  " + TextWidth.pad("ID", to: idWidth) + "  " + TextWidth.pad("INSTALLED", to: dateWidth) + "  "
        if showsType(width: width, idWidth: idWidth) { text += TextWidth.pad("TYPE", to: typeWidth) + "  " }
        if showsState(width: width) { text += TextWidth.pad("STATE", to: stateWidth) + "  " }
        let errors = errorWidth(width: width, idWidth: idWidth)
        guard errors > 0 else { return text + "METER POINT" }
        return text + TextWidth.pad("METER POINT", to: width - TextWidth.of(text) - errors - 2) + "  LAST ERROR"
    }

    static func draw(_ device: Device, into canvas: inout Canvas, row: Int, column: Int, width: Int, idWidth: Int) {
        let (mark, markStyle) = mark(device)
        canvas.put(mark, row: row, column: column, width: 1, style: markStyle)
        var x = column + 2
        let end = column + width
        canvas.put(TextWidth.truncate(device.id, to: idWidth), row: row, column: x, width: min(idWidth, end - x))
        x += idWidth + 2
        let date = device.isDamaged ? "damaged" : date(device.installationDate)
        canvas.put(date, row: row, column: x, width: max(min(dateWidth, end - x), 0),
                   style: device.isDamaged ? Style(bold: true, color: .red) : device.installationDate == nil ? .dim : .plain)
        x += dateWidth + 2
        if showsType(width: width, idWidth: idWidth) {
            canvas.put(device.type.displayName, row: row, column: x, width: min(typeWidth, end - x))
            x += typeWidth + 2
        }
        if showsState(width: width) {
            let state = device.change?.serverChange != nil ? "conflict" : device.syncState.rawValue
            canvas.put(state, row: row, column: x, width: min(stateWidth, end - x), style: device.syncState == .synced ? .dim : markStyle)
            x += stateWidth + 2
        }
        let errors = errorWidth(width: width, idWidth: idWidth)
        let meterEnd = errors > 0 ? end - errors - 2 : end
        if x < meterEnd { canvas.put(TextWidth.truncate(device.meterPointDescription, to: meterEnd - x), row: row, column: x, width: meterEnd - x) }
        if errors > 0, let error = device.change?.lastError {
            canvas.put(TextWidth.truncate(error, to: errors), row: row, column: end - errors, width: errors, style: Style(color: .red))
        }
    }
}
