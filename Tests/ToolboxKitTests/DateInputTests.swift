import FoundationEssentials
import Testing
@testable import CoreKit
@testable import ToolboxKit

/// The one date grammar every tool reads: each form, local time from a given offset, a zone
/// when given, days as whole days, and what is refused.
@Suite struct DateInputTests {
    /// 2024-10-15 10:30:00 UTC, a Tuesday.
    let now = Date(timeIntervalSince1970: 1_728_988_200)
    let utc = DateInput(now: Date(timeIntervalSince1970: 1_728_988_200), utcOffset: { _ in 0 })
    /// Two hours east of UTC, as Berlin in summer.
    let east = DateInput(now: Date(timeIntervalSince1970: 1_728_988_200), utcOffset: { _ in 7200 })

    func at(_ text: String) -> Date { ISO8601.parse(text)! }

    @Test func instantsWithAZoneAreExactWhateverTheLocalZone() throws {
        for input in [utc, east] {
            #expect(try input.value(of: "2024-10-01T09:15:00Z") == .instant(at("2024-10-01T09:15:00Z")))
            #expect(try input.value(of: "2024-10-01T11:15:00+02:00") == .instant(at("2024-10-01T09:15:00Z")))
            #expect(try input.value(of: "2024-10-01T09:15:00.250Z").start.timeIntervalSince(at("2024-10-01T09:15:00Z")) == 0.25)
            #expect(try input.value(of: "2024-10-01 09:15Z") == .instant(at("2024-10-01T09:15:00Z")))
            #expect(try input.value(of: "2024-10-01T04:15-0500") == .instant(at("2024-10-01T09:15:00Z")))
            #expect(try input.value(of: "2024-10-01 11:15:30+02") == .instant(at("2024-10-01T09:15:30Z")))
        }
    }

    @Test func withoutAZoneItIsLocalTime() throws {
        #expect(try utc.value(of: "2024-10-01 09:15") == .instant(at("2024-10-01T09:15:00Z")))
        #expect(try east.value(of: "2024-10-01 09:15") == .instant(at("2024-10-01T07:15:00Z")))
        #expect(try east.value(of: "2024-10-01T09:15:45") == .instant(at("2024-10-01T07:15:45Z")))
        #expect(try east.value(of: "09:15") == .instant(at("2024-10-15T07:15:00Z")))
        #expect(try utc.value(of: "23:59:59") == .instant(at("2024-10-15T23:59:59Z")))
        #expect(try east.value(of: "now") == .instant(now))
        #expect(try east.value(of: " NOW ") == .instant(now))
    }

    @Test func aDayIsAllOfItInTheLocalZone() throws {
        #expect(try utc.value(of: "2024-10-01") == .day(first: at("2024-10-01T00:00:00Z"), last: at("2024-10-01T23:59:59Z")))
        #expect(try east.value(of: "2024-10-01") == .day(first: at("2024-09-30T22:00:00Z"), last: at("2024-10-01T21:59:59Z")))
        #expect(try east.value(of: "today") == .day(first: at("2024-10-14T22:00:00Z"), last: at("2024-10-15T21:59:59Z")))
        #expect(try east.value(of: "yesterday").start == at("2024-10-13T22:00:00Z"))
        #expect(try utc.value(of: "Yesterday").end == at("2024-10-14T23:59:59Z"))
        // Late in the evening UTC it is already tomorrow two hours east.
        let lateEast = DateInput(now: at("2024-10-15T23:00:00Z"), utcOffset: { _ in 7200 })
        #expect(try lateEast.value(of: "today").start == at("2024-10-15T22:00:00Z"))
        #expect(try utc.value(of: "2024-02-29").start == at("2024-02-29T00:00:00Z"))
        #expect(try utc.value(of: "2000-02-29").start == at("2000-02-29T00:00:00Z"))
        #expect(try utc.value(of: "1969-12-31").start == Date(timeIntervalSince1970: -86_400))
    }

    @Test func aDayWhoseOffsetChangesLandsRight() throws {
        // Summer time begins at 2024-03-31 01:00 UTC: +1 before, +2 after, as in Berlin.
        let change = at("2024-03-31T01:00:00Z")
        let berlin = DateInput(now: now, utcOffset: { $0 < change ? 3600 : 7200 })
        #expect(try berlin.value(of: "2024-03-31 12:00") == .instant(at("2024-03-31T10:00:00Z")))
        #expect(try berlin.value(of: "2024-03-31 00:30") == .instant(at("2024-03-30T23:30:00Z")))
        // The day has 23 hours.
        let day = try berlin.value(of: "2024-03-31")
        #expect(day == .day(first: at("2024-03-30T23:00:00Z"), last: at("2024-03-31T21:59:59Z")))
    }

    @Test func whatIsNoneOfTheFormsIsRefusedNamingThem() {
        for bad in ["", "x", "2024-02-30", "2023-02-29", "2024-13-01", "2024-10-01 24:00", "2024-10-01 12:60", "12:60",
                    "9:15", "2024-10-01 9:15", "2024-1-01", "2024-10-01 09:15+25:00", "2024-10-01 09:15Zx", "tomorrow",
                    "2024-10-01T09:15:00ZZ", String(repeating: "9", count: 100_000)] {
            #expect(utc.value(bad) == nil, "\(bad.prefix(40))")
        }
        do {
            _ = try utc.value(of: "2024-02-30")
            Issue.record("accepted 30 February")
        } catch {
            #expect(error.exitStatus == .usage)
            #expect(error.message == "invalid date \"2024-02-30\": use " + DateInput.forms)
        }
    }

    @Test func civilDaysRoundTrip() {
        for days in stride(from: -800_000, through: 800_000, by: 997) {
            let date = CivilDate(daysSince1970: days)
            #expect(date.daysSince1970 == days)
            #expect(CivilDate(year: date.year, month: date.month, day: date.day) == date)
        }
    }
}

/// Issue 37: one calendar both ways, and nothing stored that the server's form cannot carry.
@Suite struct DateRoundTripTests {
    @Test func beforeTheGregorianReformTheDayIsKept() throws {
        let input = DateInput(now: Date(timeIntervalSince1970: 0), utcOffset: { _ in 0 })
        let date = try input.value(of: "1582-10-14").start
        #expect(ISO8601.format(date) == "1582-10-14T00:00:00Z")
        #expect(ISO8601.parse("1582-10-04T12:00:00Z").map(ISO8601.format) == "1582-10-04T12:00:00Z")
        #expect(ISO8601.parse("0001-01-01T00:00:00Z").map(ISO8601.format) == "0001-01-01T00:00:00Z")
    }

    /// The digits written into one buffer are the fields joined as strings, for any second
    /// from year -99999 to 99999: zeros to four digits of year, two of everything else.
    @Test func formattingIsTheFieldsJoined() {
        var generator = SeededGenerator(seed: 49_3)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        for _ in 0..<20_000 {
            let date = Date(timeIntervalSince1970: Double(Int.random(in: -3_217_000_000_000...3_093_000_000_000, using: &generator)))
            let (day, second) = ISO8601.civil(date)
            let year = String(abs(day.year))
            let expected = (day.year < 0 ? "-" : "") + String(repeating: "0", count: max(4 - year.count, 0)) + year
                + "-" + two(day.month) + "-" + two(day.day) + "T" + two(second / 3600) + ":" + two(second / 60 % 60) + ":" + two(second % 60) + "Z"
            #expect(ISO8601.format(date) == expected)
        }
        #expect(ISO8601.format(Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00Z")
    }

    @Test func whatTheFormCannotCarryIsRefused() {
        let input = DateInput(now: Date(timeIntervalSince1970: 0), utcOffset: { _ in 0 })
        #expect(input.value("9999-12-31T23:00-01") == nil)
        #expect(input.value("9999-12-31T22:00-01") != nil)
        #expect(input.value("0000-01-01T00:30+01:00") == nil)
        #expect(ISO8601.parse("10000-01-01T00:00:00Z") == nil)
    }

    @Test func serverFormsReadAsBefore() {
        #expect(ISO8601.parse("2018-08-24T14:15:22Z")?.timeIntervalSince1970 == 1_535_120_122)
        #expect(ISO8601.parse("2018-08-24T14:15:22.250Z")?.timeIntervalSince1970 == 1_535_120_122.25)
        #expect(ISO8601.parse("2018-08-24T16:15:22+02:00")?.timeIntervalSince1970 == 1_535_120_122)
        #expect(ISO8601.parse("2018-08-24 14:15:22Z") == nil)
        #expect(ISO8601.parse("2018-02-30T00:00:00Z") == nil)
        #expect(ISO8601.format(Date(timeIntervalSince1970: -1)) == "1969-12-31T23:59:59Z")
    }

    /// The property: any instant in 0000–9999 written and read back is the same second, and
    /// a day typed reads back as the day written.
    @Test func formatThenParseIsTheSameSecond() throws {
        var generator = SeededGenerator(seed: 37)
        let input = DateInput(now: Date(timeIntervalSince1970: 0), utcOffset: { _ in 0 })
        for _ in 0..<5_000 {
            let seconds = Int.random(in: -62_167_219_200..<253_402_300_800, using: &generator)
            let date = Date(timeIntervalSince1970: Double(seconds))
            #expect(ISO8601.isRepresentable(date))
            let text = ISO8601.format(date)
            #expect(ISO8601.parse(text) == date, "\(text)")
            #expect(try input.value(of: String(text.prefix(10))).start == Date(timeIntervalSince1970: Double(seconds - ((seconds % 86_400) + 86_400) % 86_400)), "\(text)")
        }
    }
}
