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
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let year = String(abs(day.year))
        return (day.year < 0 ? "-" : "") + String(repeating: "0", count: max(4 - year.count, 0)) + year
            + "-" + two(day.month) + "-" + two(day.day)
            + "T" + two(second / 3600) + ":" + two(second / 60 % 60) + ":" + two(second % 60) + "Z"
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
