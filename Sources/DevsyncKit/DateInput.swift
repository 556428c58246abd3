#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import ToolboxKit

/// `--at DATE`: ISO 8601 (`2024-03-04T09:15:00Z`, with offset or fraction), or
/// `YYYY-MM-DD HH:MM` in local time, as an installer would type it.
public enum DateInput {
    public static func parse(_ text: String) throws(ToolError) -> Date {
        let trimmed = text.trimmingSpaces()
        if let date = ISO8601.parse(trimmed) { return date }
        if let date = localMinute(trimmed) { return date }
        throw .usage("invalid date \(Terminal.quote(text)): use ISO 8601 (2024-03-04T09:15:00Z) or YYYY-MM-DD HH:MM (local time)")
    }

    /// `YYYY-MM-DD HH:MM` (or with a `T`) in the local time zone, via mktime.
    static func localMinute(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count == 16, bytes[4] == 0x2D, bytes[7] == 0x2D, bytes[10] == 0x20 || bytes[10] == 0x54, bytes[13] == 0x3A
        else { return nil }
        func number(_ range: Range<Int>) -> Int32? {
            var value: Int32 = 0
            for index in range {
                guard (0x30...0x39).contains(bytes[index]) else { return nil }
                value = value * 10 + Int32(bytes[index] - 0x30)
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              let hour = number(11..<13), let minute = number(14..<16),
              (1...12).contains(month), (1...31).contains(day), (0...23).contains(hour), (0...59).contains(minute)
        else { return nil }
        var parts = tm()
        parts.tm_year = year - 1900
        parts.tm_mon = month - 1
        parts.tm_mday = day
        parts.tm_hour = hour
        parts.tm_min = minute
        parts.tm_isdst = -1
        let seconds = mktime(&parts)
        // mktime normalises 31 February to March; refuse dates that do not exist.
        guard seconds != -1, parts.tm_mday == day, parts.tm_mon == month - 1 else { return nil }
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }
}
