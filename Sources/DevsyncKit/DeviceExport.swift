import CoreKit

/// `devsync export` as CSV: one line a device, readable by `devsync import`.
public enum DeviceExport {
    public static let header = ["id", "installationDate", "state", "type", "meterPointDescription"]

    /// A device's fields, each made safe for a spreadsheet (`neutralized`). Written to a file
    /// or a pipe, server text is kept exactly (CSV quoting carries any character), so that
    /// `import` reads back every id; on a terminal it is sanitised (`Terminal.sanitize`).
    public static func fields(_ device: Device, forTerminal: Bool = false) -> [String] {
        // A damaged date is written as "damaged", which import refuses: never a blank, which
        // it would read as "not installed" and sync would send as null.
        [device.id, device.isDamaged ? "damaged" : device.installationDate.map(ISO8601.format) ?? "", device.syncState.rawValue,
         device.type.rawValue, device.meterPointDescription]
            .map { neutralized(forTerminal ? Terminal.sanitize($0) : $0) }
    }

    /// A cell a spreadsheet would run as a formula (starting with `=`, `+`, `-`, `@`, a tab or
    /// a carriage return) gets a leading `'`, which spreadsheets show as text (OWASP's advice);
    /// so does one that starts with `'` already, so that `imported` takes exactly one off.
    public static func neutralized(_ field: String) -> String {
        guard let first = field.utf8.first else { return field }
        switch first {
        case UInt8(ascii: "="), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "@"), 0x09, 0x0D, UInt8(ascii: "'"):
            return "'" + field
        default:
            return field
        }
    }

    /// A field as `neutralized` wrote it, back as it was: one leading `'` off.
    public static func imported(_ field: String) -> String {
        field.utf8.first == UInt8(ascii: "'") ? String(field.unicodeScalars.dropFirst()) : field
    }
}
