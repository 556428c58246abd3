import FoundationEssentials

/// A date as feeds write it, read as feedparser reads it: RFC 822 and its descendants (a day
/// name or none, named or numeric zones, two-digit years, no seconds) and ISO 8601 as RFC 3339
/// and W3CDTF use it (partial dates `2026`, `2026-11`, `2026-11-27`; a space for the `T`; no
/// zone). A date it cannot read for certain is nil, shown as unknown, never a wrong date: an
/// unknown zone name, a day that does not exist, a time past 23:59:60.
public enum FeedDate {
    public static func parse(_ text: String) -> Date? {
        guard text.utf8.count <= 128 else { return nil }
        // Read in place, with nothing allocated: a feed of 100,000 entries has as many dates.
        var text = text
        return text.withUTF8 { all in
            var start = 0, end = all.count
            while end > start, isSpace(all[end - 1]) { end -= 1 }
            while start < end, isSpace(all[start]) { start += 1 }
            guard start < end else { return nil }
            let bytes = UnsafeBufferPointer(rebasing: all[start..<end])
            return bytes.count >= 4 && bytes.prefix(4).allSatisfy(isDigit) ? iso(bytes) : rfc822(bytes)
        }
    }

    /// `Fri, 27 Nov 2026 10:30:15 GMT`, as RSS 2.0 writes a date (RFC 822 with a four-digit
    /// year, RFC 1123), in UTC, whole seconds.
    public static func rfc822(_ date: Date) -> String {
        let (day, second) = ISO8601.civil(date)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        // 1970-01-01 was a Thursday.
        let weekday = ((day.daysSince1970 % 7) + 7 + 3) % 7
        let names = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
        let month = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"][day.month - 1]
        return names[weekday] + ", " + two(day.day) + " " + month + " "
            + String(day.year) + " " + two(second / 3600) + ":" + two(second / 60 % 60) + ":" + two(second % 60) + " GMT"
    }

    // MARK: ISO 8601: RFC 3339, W3CDTF

    static func iso(_ bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        var scan = Scanner(bytes)
        guard let year = scan.number(exactly: 4) else { return nil }
        var month = 1, day = 1
        if scan.take(0x2D) {
            guard let value = scan.number(exactly: 2) else { return nil }
            month = value
            if scan.take(0x2D) {
                guard let value = scan.number(exactly: 2) else { return nil }
                day = value
            }
        }
        guard let date = CivilDate(year: year, month: month, day: day) else { return nil }
        var time = ClockTime(hour: 0, minute: 0, second: 0)
        var offset = 0
        if !scan.atEnd {
            guard scan.take(0x54) || scan.take(0x74) || scan.take(0x20), let clock = scan.clock() else { return nil }
            time = clock
            scan.skipSpaces()
            if !scan.atEnd {
                guard let zone = scan.zone() else { return nil }
                offset = zone
            }
        }
        guard scan.atEnd else { return nil }
        return instant(date, time, offset)
    }

    // MARK: RFC 822, 1123, 2822 and what feeds make of them

    static func rfc822(_ bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        var scan = Scanner(bytes)
        // A day name, whole or short, with or without its comma: it adds nothing.
        if let word = scan.word(), word.count > 0 {
            guard word.count >= 3, weekdays.contains(word.first3) else { return nil }
            _ = scan.take(0x2C)
            scan.skipSpaces()
        }
        guard let day = scan.number(upTo: 2) else { return nil }
        scan.skipSpaces()
        _ = scan.take(0x2D)
        guard let name = scan.word(), name.count >= 3, let month = months.firstIndex(of: name.first3) else { return nil }
        scan.skipSpaces()
        _ = scan.take(0x2D)
        guard let digits = scan.digitCount(), let value = scan.number(exactly: digits), digits == 2 || digits == 4 || digits == 3 else { return nil }
        // RFC 2822 4.3: two digits under 50 are 20xx, from 50 on 19xx; three are added to 1900.
        let year = digits == 4 ? value : digits == 3 ? 1900 + value : value < 50 ? 2000 + value : 1900 + value
        guard let date = CivilDate(year: year, month: month + 1, day: day) else { return nil }
        scan.skipSpaces()
        guard !scan.atEnd else { return instant(date, ClockTime(hour: 0, minute: 0, second: 0), 0) }
        guard let time = scan.clock() else { return nil }
        scan.skipSpaces()
        var offset = 0
        if !scan.atEnd {
            guard let zone = scan.zone() else { return nil }
            offset = zone
        }
        guard scan.atEnd else { return nil }
        return instant(date, time, offset)
    }

    static func instant(_ date: CivilDate, _ time: ClockTime, _ offset: Int) -> Date {
        Date(timeIntervalSince1970: Double(date.utcSeconds(at: time) - offset) + time.fraction)
    }

    /// Names packed as `Word` packs them: the first three letters say the day and the month.
    static let weekdays: [UInt64] = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"].map { Word(packing: $0).key }
    static let months: [UInt64] = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
        .map { Word(packing: $0).key }
    /// Zone names whose offset is certain (RFC 822's, and the unambiguous ones feeds use);
    /// any other name makes the date unknown. Hours east of UTC.
    static let zones: [(name: UInt64, hours: Int)] = [
        ("ut", 0), ("utc", 0), ("gmt", 0), ("z", 0),
        ("est", -5), ("edt", -4), ("cst", -6), ("cdt", -5), ("mst", -7), ("mdt", -6), ("pst", -8), ("pdt", -7),
        ("akst", -9), ("akdt", -8), ("hst", -10), ("wet", 0), ("west", 1), ("cet", 1), ("cest", 2), ("met", 1), ("mest", 2),
        ("eet", 2), ("eest", 3), ("msk", 3), ("jst", 9), ("kst", 9), ("aest", 10), ("aedt", 11), ("nzst", 12), ("nzdt", 13),
    ].map { (Word(packing: $0.0).key, $0.1) }

    /// A word of ASCII letters, lower-cased, its first eight packed into an integer (the
    /// first letter lowest): compared with no array made (a date has up to three words).
    struct Word {
        var key: UInt64 = 0
        var count = 0

        init() {}

        init(packing name: String) {
            for byte in name.utf8 { append(byte) }
        }

        mutating func append(_ byte: UInt8) {
            if count < 8 { key |= UInt64(byte) << (8 * UInt64(count)) }
            count += 1
        }

        /// The first three letters, which name a day or a month.
        var first3: UInt64 { key & 0xFF_FFFF }
    }

    static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
    static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }

    /// A cursor over the date's bytes.
    struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        var at = 0

        init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        var atEnd: Bool { at == bytes.count }

        mutating func take(_ byte: UInt8) -> Bool {
            guard at < bytes.count, bytes[at] == byte else { return false }
            at += 1
            return true
        }

        mutating func skipSpaces() { while at < bytes.count, FeedDate.isSpace(bytes[at]) { at += 1 } }

        /// How many digits start here (at most 9), without taking them.
        func digitCount() -> Int? {
            var end = at
            while end < bytes.count, FeedDate.isDigit(bytes[end]) { end += 1 }
            return end > at && end - at <= 9 ? end - at : nil
        }

        mutating func number(exactly count: Int) -> Int? {
            guard at + count <= bytes.count, let value = Digits.value(bytes[at..<at + count]) else { return nil }
            guard at + count == bytes.count || !FeedDate.isDigit(bytes[at + count]) else { return nil }
            at += count
            return value
        }

        mutating func number(upTo count: Int) -> Int? {
            guard let digits = digitCount(), digits <= count else { return nil }
            return number(exactly: digits)
        }

        /// Letters, lower-cased (ASCII only: a name is English or it is not a name here).
        mutating func word() -> Word? {
            var word = Word()
            while at < bytes.count, case let byte = bytes[at] | 0x20, (0x61...0x7A).contains(byte) {
                word.append(byte)
                at += 1
                guard word.count <= 12 else { return nil }
            }
            return word
        }

        /// `HH:MM`, `HH:MM:SS`, `HH:MM:SS.fff`; 23:59:60 (a leap second) is read as :59.
        mutating func clock() -> ClockTime? {
            guard let hour = number(upTo: 2), take(0x3A), let minute = number(exactly: 2) else { return nil }
            var second = 0
            var fraction = 0.0
            if take(0x3A) {
                guard let value = number(exactly: 2) else { return nil }
                second = value
                if take(0x2E) || take(0x2C) {
                    guard let digits = digitCount(), let value = number(exactly: digits) else { return nil }
                    var scale = 1.0
                    for _ in 0..<digits { scale *= 10 }
                    fraction = Double(value) / scale
                }
            }
            guard hour < 24, minute < 60, second <= 60 else { return nil }
            var time = ClockTime(hour: hour, minute: minute, second: min(second, 59))
            time.fraction = fraction
            return time
        }

        /// `Z`, `+hh:mm`, `+hhmm`, `+hh`, or a zone name (optionally followed by a comment in
        /// parentheses, as in `-0500 (EST)`): seconds east of UTC.
        mutating func zone() -> Int? {
            if at < bytes.count, bytes[at] == 0x2B || bytes[at] == 0x2D {
                let sign = bytes[at] == 0x2D ? -1 : 1
                at += 1
                guard let digits = digitCount(), digits == 2 || digits == 4, let value = number(exactly: digits) else { return nil }
                var hours = digits == 4 ? value / 100 : value
                var minutes = digits == 4 ? value % 100 : 0
                if digits == 2, take(0x3A) {
                    guard let value = number(exactly: 2) else { return nil }
                    minutes = value
                }
                guard hours <= 14, minutes < 60 else { return nil }
                hours *= 3600
                minutes *= 60
                skipComment()
                return sign * (hours + minutes)
            }
            // A zone name is whole (at most four letters): never matched by its first eight alone.
            guard let word = word(), word.count <= 8, let zone = FeedDate.zones.first(where: { $0.name == word.key }) else { return nil }
            let hours = zone.hours
            skipComment()
            return hours * 3600
        }

        mutating func skipComment() {
            skipSpaces()
            guard at < bytes.count, bytes[at] == 0x28, let close = bytes[at...].firstIndex(of: 0x29) else { return }
            at = close + 1
            skipSpaces()
        }
    }
}
