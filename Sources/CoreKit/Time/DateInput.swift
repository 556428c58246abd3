#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials

/// The one grammar for every date a person types (`devsync install --at`, `devsync log
/// --since`, `blogctl list --since/--until`, the date field of `devsync ui`): an ISO 8601
/// instant, a day, a time today, a day and a time, `now`, `today`, `yesterday`. Local time
/// unless a zone is given. A day names all of it: from its first second (`--since`, `--at`)
/// to its last (`--until`).
public struct DateInput: Sendable {
    /// The forms, as every help text and error says them.
    public static let forms = "2024-10-01T09:15:00Z, 2024-10-01, 09:15, 2024-10-01 09:15, now, today or yesterday, "
        + "today 08:00 or yesterday 17:30 (local time unless a zone such as Z or +02:00 is given)"

    /// What a text names.
    public enum Value: Sendable, Equatable {
        case instant(Date)
        /// A whole day: its first and its last second.
        case day(first: Date, last: Date)

        public var start: Date {
            switch self {
            case .instant(let date), .day(let date, _): date
            }
        }

        public var end: Date {
            switch self {
            case .instant(let date), .day(_, let date): date
            }
        }
    }

    public var now: Date
    /// The local zone's offset from UTC at an instant, in seconds (TZ applies).
    public var utcOffset: @Sendable (Date) -> Int

    public init(now: Date = Date(), utcOffset: @escaping @Sendable (Date) -> Int = LocalTime.offset(at:)) {
        self.now = now
        self.utcOffset = utcOffset
    }

    /// The instant `text` names (a day: its first second); a usage error naming the forms.
    public static func parse(_ text: String) throws(ToolError) -> Date { try DateInput().value(of: text).start }

    public func value(of text: String) throws(ToolError) -> Value {
        guard let value = value(text) else {
            throw .usage("invalid date \(Terminal.quote(text)): use \(Self.forms)")
        }
        return value
    }

    /// What `text` names, or nil when it is none of the forms or falls outside the years
    /// 0000–9999 once in UTC (`9999-12-31T23:00-01` is the year 10000), which no ISO 8601
    /// reader takes back.
    public func value(_ text: String) -> Value? {
        guard let value = anyValue(text) else { return nil }
        switch value {
        case .instant(let date): return ISO8601.isRepresentable(date) ? value : nil
        case .day(let first, let last): return ISO8601.isRepresentable(first) && ISO8601.isRepresentable(last) ? value : nil
        }
    }

    private func anyValue(_ text: String) -> Value? {
        let trimmed = text.trimmingSpaces()
        guard trimmed.utf8.count <= 64 else { return nil }
        switch trimmed.lowercased() {
        case "now": return .instant(now)
        case "today": return day(CivilDate(localDay: now, offset: utcOffset))
        case "yesterday": return day(CivilDate(localDay: now, offset: utcOffset).adding(days: -1))
        default: break
        }
        if let time = ClockTime(trimmed) {
            return .instant(local(CivilDate(localDay: now, offset: utcOffset), time).addingTimeInterval(time.fraction))
        }
        // A day word and a time: `today 08:00`, `yesterday 17:30:15`, on the local clock.
        for (word, days) in [("today ", 0), ("yesterday ", -1)] where trimmed.lowercased().hasPrefix(word) {
            guard let time = ClockTime(String(trimmed.dropFirst(word.count)).trimmingSpaces()) else { return nil }
            let day = CivilDate(localDay: now, offset: utcOffset).adding(days: days)
            return .instant(local(day, time).addingTimeInterval(time.fraction))
        }
        if let date = CivilDate(trimmed) { return day(date) }
        // A day and a time: `2024-10-01 09:15`, `2024-10-01T09:15:30`, with or without a zone.
        let bytes = Array(trimmed.utf8)
        if bytes.count >= 16, bytes[10] == 0x20 || bytes[10] == 0x54 || bytes[10] == 0x74,
           let date = CivilDate(String(decoding: bytes[0..<10], as: UTF8.self)) {
            let rest = String(decoding: bytes[11...], as: UTF8.self)
            if let time = ClockTime(rest) { return .instant(local(date, time).addingTimeInterval(time.fraction)) }
            if let (time, offset) = ClockTime.withZone(rest) {
                return .instant(Date(timeIntervalSince1970: Double(date.utcSeconds(at: time) - offset) + time.fraction))
            }
        }
        return nil
    }

    private func day(_ date: CivilDate) -> Value {
        let first = local(date, ClockTime(hour: 0, minute: 0, second: 0))
        let next = local(date.adding(days: 1), ClockTime(hour: 0, minute: 0, second: 0))
        return .day(first: first, last: next.addingTimeInterval(-1))
    }

    /// `date` at `time` on the local clock: the UTC reading less the zone's offset then
    /// (asked twice, so a day that changes its offset lands right).
    private func local(_ date: CivilDate, _ time: ClockTime) -> Date {
        let reading = date.utcSeconds(at: time)
        var guess = Date(timeIntervalSince1970: Double(reading - utcOffset(Date(timeIntervalSince1970: Double(reading)))))
        guess = Date(timeIntervalSince1970: Double(reading - utcOffset(guess)))
        return guess
    }
}
