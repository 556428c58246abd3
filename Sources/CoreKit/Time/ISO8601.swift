import FoundationEssentials

/// ISO 8601 dates as the servers send them: `2018-08-24T14:15:22Z`, with or without
/// fractional seconds, with `Z` or an offset. Read and written with the one calendar
/// `DateInput` uses, the proleptic Gregorian (`CivilDate`), so that a date before 1582 reads
/// back as it was written (Foundation's switches to the Julian calendar there); only years
/// 0000–9999, the four digits the form carries, are written (`isRepresentable`).
public enum ISO8601 {
    public static func parse(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 17, bytes.count <= 40, bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: "t"),
              let day = CivilDate(String(decoding: bytes[0..<10], as: UTF8.self)),
              let (time, offset) = ClockTime.withZone(String(decoding: bytes[11...], as: UTF8.self))
        else { return nil }
        return Date(timeIntervalSince1970: Double(day.utcSeconds(at: time) - offset) + time.fraction)
    }

    /// UTC, whole seconds: `2018-08-24T14:15:22Z`.
    public static func format(_ date: Date) -> String {
        let (day, second) = civil(date)
        // Digits into one buffer, one String made: a long list formats a date a row, and a
        // dozen small strings joined for each would be a dozen allocations a row.
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 40) { buffer in
            var count = 0
            func put(_ byte: UInt8) { buffer[count] = byte; count += 1 }
            func digits(_ value: Int, width: Int) {
                var divisor = 1, length = 1
                while divisor <= value / 10 { divisor *= 10; length += 1 }
                for _ in length..<max(width, length) { put(UInt8(ascii: "0")) }
                while divisor > 0 { put(UInt8(ascii: "0") + UInt8(value / divisor % 10)); divisor /= 10 }
            }
            if day.year < 0 { put(UInt8(ascii: "-")) }
            digits(abs(day.year), width: 4)
            put(UInt8(ascii: "-")); digits(day.month, width: 2)
            put(UInt8(ascii: "-")); digits(day.day, width: 2)
            put(UInt8(ascii: "T")); digits(second / 3600, width: 2)
            put(UInt8(ascii: ":")); digits(second / 60 % 60, width: 2)
            put(UInt8(ascii: ":")); digits(second % 60, width: 2)
            put(UInt8(ascii: "Z"))
            return String(decoding: UnsafeBufferPointer(rebasing: buffer[..<count]), as: UTF8.self)
        }
    }

    /// Whether `date` falls in the years 0000–9999, which `format` writes in four digits and
    /// every ISO 8601 reader (this one too) takes back.
    public static func isRepresentable(_ date: Date) -> Bool {
        guard date.timeIntervalSince1970.isFinite, abs(date.timeIntervalSince1970) < 1e15 else { return false }
        return (0...9999).contains(civil(date).day.year)
    }

    /// The UTC day of `date` and the second into it.
    static func civil(_ date: Date) -> (day: CivilDate, second: Int) {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down))
        let days = seconds >= 0 ? seconds / 86_400 : -((-seconds + 86_399) / 86_400)
        return (CivilDate(daysSince1970: days), seconds - days * 86_400)
    }
}
