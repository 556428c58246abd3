import FoundationEssentials

/// ISO 8601 dates as the servers send them: `2018-08-24T14:15:22Z`, with or without
/// fractional seconds, with `Z` or an offset.
public enum ISO8601 {
    public static func parse(_ text: String) -> Date? {
        if let date = try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: false)) { return date }
        if let date = try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)) { return date }
        return nil
    }

    /// UTC, whole seconds: `2018-08-24T14:15:22Z`.
    public static func format(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: false))
    }
}
