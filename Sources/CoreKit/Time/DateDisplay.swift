#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials

/// Dates for people and for scripts: local time in human form on a terminal,
/// ISO 8601 UTC in TSV and JSON.
public enum DateDisplay {
    /// `2024-03-04 10:15` in the local time zone.
    public static func human(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        localtime_r(&seconds, &parts)
        var buffer = [CChar](repeating: 0, count: 32)
        let count = strftime(&buffer, buffer.count, "%Y-%m-%d %H:%M", &parts)
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `10:15` when `date` is on the local day of `now`, else the day: for a status line.
    public static func short(_ date: Date, now: Date = Date()) -> String {
        let full = human(date)
        return full.prefix(10) == human(now).prefix(10) ? String(full.dropFirst(11)) : String(full.prefix(10))
    }

    /// `human` on a terminal, ISO 8601 UTC otherwise.
    public static func format(_ date: Date, for mode: OutputMode) -> String {
        mode == .table ? human(date) : ISO8601.format(date)
    }

    /// A date that may be unknown (a feed's that could not be read): `unknown` for people,
    /// empty for scripts, never a made-up date.
    public static func human(_ date: Date?) -> String { date.map { human($0) } ?? "unknown" }

    public static func format(_ date: Date?, for mode: OutputMode) -> String {
        date.map { format($0, for: mode) } ?? (mode == .table ? "unknown" : "")
    }
}
