import FoundationEssentials

/// A calendar day (proleptic Gregorian) and a time on a clock, as `DateInput` reads them:
/// the arithmetic of days from 1970 is Howard Hinnant's `days_from_civil`, so no calendar
/// object or time zone database is needed.
struct CivilDate: Sendable, Equatable {
    var year: Int
    var month: Int
    var day: Int

    init?(year: Int, month: Int, day: Int) {
        guard (1...12).contains(month), (1...Self.days(in: month, of: year)).contains(day) else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// `YYYY-MM-DD`, exactly.
    init?(_ text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == 0x2D, bytes[7] == 0x2D,
              let year = Digits.value(bytes[0..<4]), let month = Digits.value(bytes[5..<7]), let day = Digits.value(bytes[8..<10])
        else { return nil }
        self.init(year: year, month: month, day: day)
    }

    /// The local day `instant` falls on, in a zone `offset` seconds from UTC then.
    init(localDay instant: Date, offset: (Date) -> Int) {
        let seconds = Int(instant.timeIntervalSince1970.rounded(.down)) + offset(instant)
        self.init(daysSince1970: Int((Double(seconds) / 86_400).rounded(.down)))
    }

    init(daysSince1970 days: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    }

    var daysSince1970: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    func adding(days: Int) -> CivilDate { CivilDate(daysSince1970: daysSince1970 + days) }

    /// Seconds since 1970 of this day at `time` (whole seconds), read as UTC.
    func utcSeconds(at time: ClockTime) -> Int { daysSince1970 * 86_400 + time.secondsIntoDay }

    static func days(in month: Int, of year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}

/// `HH:MM`, `HH:MM:SS` or `HH:MM:SS.fff` on a 24-hour clock.
struct ClockTime: Sendable, Equatable {
    var hour: Int
    var minute: Int
    var second: Int
    /// The part of a second, 0 ..< 1.
    var fraction = 0.0

    init(hour: Int, minute: Int, second: Int) {
        self.hour = hour
        self.minute = minute
        self.second = second
    }

    init?(_ text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count == 5 || bytes.count == 8 || (bytes.count >= 10 && bytes.count <= 18 && bytes[8] == 0x2E),
              bytes[2] == 0x3A, bytes.count == 5 || bytes[5] == 0x3A,
              let hour = Digits.value(bytes[0..<2]), let minute = Digits.value(bytes[3..<5]),
              hour < 24, minute < 60 else { return nil }
        let second = bytes.count >= 8 ? Digits.value(bytes[6..<8]) : 0
        guard let second, second < 60 else { return nil }
        self.init(hour: hour, minute: minute, second: second)
        if bytes.count > 8 {
            guard let digits = Digits.value(bytes[9...]) else { return nil }
            var scale = 1.0
            for _ in 9..<bytes.count { scale *= 10 }
            fraction = Double(digits) / scale
        }
    }

    /// A time followed by a zone, `Z`, `+02:00`, `+0200` or `+02`: the time and the zone's
    /// offset in seconds east of UTC.
    static func withZone(_ text: String) -> (ClockTime, Int)? {
        let bytes = Array(text.utf8)
        guard let split = bytes.firstIndex(where: { $0 == 0x5A || $0 == 0x7A || $0 == 0x2B || $0 == 0x2D }),
              let time = ClockTime(String(decoding: bytes[..<split], as: UTF8.self)) else { return nil }
        let zone = Array(bytes[split...])
        if zone.count == 1, zone[0] == 0x5A || zone[0] == 0x7A { return (time, 0) }
        let sign = zone[0] == 0x2D ? -1 : 1
        let digits = zone.dropFirst().filter { $0 != 0x3A }
        guard zone[0] != 0x5A, zone[0] != 0x7A, digits.count == 2 || digits.count == 4,
              zone.count == digits.count + 1 || (zone.count == 6 && zone[3] == 0x3A),
              let hours = Digits.value(digits.prefix(2)), hours <= 14,
              let minutes = digits.count == 4 ? Digits.value(digits.suffix(2)) : 0, minutes < 60 else { return nil }
        return (time, sign * (hours * 3600 + minutes * 60))
    }

    var secondsIntoDay: Int { hour * 3600 + minute * 60 + second }
}

/// ASCII digits as a number.
enum Digits {
    static func value<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Int? {
        guard !bytes.isEmpty else { return nil }
        var value = 0
        for byte in bytes {
            guard (0x30...0x39).contains(byte) else { return nil }
            value = value * 10 + Int(byte - 0x30)
        }
        return value
    }
}
