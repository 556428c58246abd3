import FoundationEssentials
import ToolboxKit

extension Device {
    /// The date for a table cell or TSV field: local time on a terminal, ISO 8601 UTC piped,
    /// `-` or empty when not installed.
    public func dateField(_ date: Date?, _ mode: OutputMode) -> String {
        guard let date else { return mode == .table ? "-" : "" }
        return DateDisplay.format(date, for: mode)
    }

    public func typeField(_ mode: OutputMode) -> String { mode == .table ? type.displayName : type.rawValue }
}
