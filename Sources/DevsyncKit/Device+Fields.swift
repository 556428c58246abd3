import FoundationEssentials
import ToolboxKit

extension Device {
    /// The date for a table cell or TSV field: local time on a terminal, ISO 8601 UTC piped,
    /// `-` or empty when not installed.
    /// The installation date as a field: "damaged" for a change whose stored date cannot be
    /// read, never the blank of "not installed".
    public func installedField(_ mode: OutputMode) -> String {
        isDamaged ? "damaged" : dateField(installationDate, mode)
    }

    public func dateField(_ date: Date?, _ mode: OutputMode) -> String {
        guard let date else { return mode == .table ? "-" : "" }
        return DateDisplay.format(date, for: mode)
    }

    public func typeField(_ mode: OutputMode) -> String { mode == .table ? type.displayName : type.rawValue }
}
