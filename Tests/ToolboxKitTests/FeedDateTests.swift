import FoundationEssentials
import Testing
@testable import CoreKit

/// Issue 49: every date form found in feeds, read right or not at all.
@Suite struct FeedDateTests {
    /// 2026-11-27T10:30:15Z
    static let instant = 1_795_775_415.0

    func seconds(_ text: String) -> Double? { FeedDate.parse(text)?.timeIntervalSince1970 }

    @Test(arguments: [
        // RFC 822 / 1123 / 2822, as RSS writes them.
        "Fri, 27 Nov 2026 10:30:15 GMT", "Fri, 27 Nov 2026 10:30:15 +0000", "Fri, 27 Nov 2026 10:30:15 UT",
        "Fri, 27 Nov 2026 10:30:15 Z", "27 Nov 2026 10:30:15 GMT", "Fri 27 Nov 2026 10:30:15 GMT",
        "Friday, 27 November 2026 10:30:15 GMT", "fri, 27 nov 2026 10:30:15 gmt", "Fri, 27 Nov 26 10:30:15 GMT",
        "Fri, 27 Nov 2026 05:30:15 EST", "Fri, 27 Nov 2026 05:30:15 -0500", "Fri, 27 Nov 2026 05:30:15 -0500 (EST)",
        "Fri, 27 Nov 2026 02:30:15 PST", "Fri, 27 Nov 2026 11:30:15 CET", "Fri, 27 Nov 2026 16:00:15 +0530",
        "Fri, 27 Nov 2026 12:30:15 +02:00", "  Fri, 27 Nov 2026 10:30:15 GMT\n", "Fri, 27-Nov-2026 10:30:15 GMT",
        // RFC 3339 and W3CDTF.
        "2026-11-27T10:30:15Z", "2026-11-27t10:30:15z", "2026-11-27T10:30:15+00:00", "2026-11-27T11:30:15+01:00",
        "2026-11-27T05:30:15-05:00", "2026-11-27T05:30:15-0500", "2026-11-27 10:30:15Z", "2026-11-27T10:30:15",
        "2026-11-27T10:30:15.000Z",
    ])
    func readsTheSameInstant(text: String) {
        #expect(seconds(text) == Self.instant, "\(text)")
    }

    @Test func partialFormsAreTheirFirstInstant() {
        #expect(seconds("Fri, 27 Nov 2026 10:30 GMT") == Self.instant - 15)
        #expect(seconds("2026-11-27T10:30Z") == Self.instant - 15)
        #expect(seconds("2026-11-27") == 1_795_737_600)
        #expect(seconds("2026-11") == 1_793_491_200)
        #expect(seconds("2026") == 1_767_225_600)
        #expect(seconds("27 Nov 2026") == 1_795_737_600)
        #expect(seconds("2026-11-27T10:30:15.5Z") == Self.instant + 0.5)
    }

    @Test func twoDigitYearsFollowRFC2822() {
        #expect(seconds("01 Jan 49 00:00 GMT") == seconds("2049-01-01T00:00:00Z"))
        #expect(seconds("01 Jan 50 00:00 GMT") == seconds("1950-01-01T00:00:00Z"))
        #expect(seconds("01 Jan 99 00:00 GMT") == seconds("1999-01-01T00:00:00Z"))
    }

    /// Unknown, never wrong: what cannot be read for certain is nil.
    @Test(arguments: [
        "", "   ", "yesterday", "Fri, 31 Nov 2026 10:30:15 GMT", "Fri, 29 Feb 2026 10:30:15 GMT", "2026-13-01",
        "2026-11-27T24:00:00Z", "2026-11-27T10:60:00Z", "Fri, 27 Nov 2026 10:30:15 IST", "Fri, 27 Nov 2026 10:30:15 XYZ",
        "Fri, 27 Nov 2026 10:30:15 +2400", "Fri, 27 Foo 2026 10:30:15 GMT", "Fri, 27 Nov 2026 10:30:15 GMT trailing",
        "2026-11-27T10:30:15+01:00:00", "2026-1-27", "20261127", "Blursday, 27 Nov 2026 10:30:15 GMT",
        "2026-11-27T10:30:15.99999999999999999999Z", "99999999999-01-01", String(repeating: "9", count: 200),
    ])
    func refuses(text: String) {
        #expect(FeedDate.parse(text) == nil, "\(text)")
    }

    /// What mockd's RSS writes reads back as the same second, whatever the day.
    @Test func rfc822WritesWhatItReads() {
        #expect(FeedDate.rfc822(Date(timeIntervalSince1970: Self.instant)) == "Fri, 27 Nov 2026 10:30:15 GMT")
        #expect(FeedDate.rfc822(Date(timeIntervalSince1970: 0)) == "Thu, 01 Jan 1970 00:00:00 GMT")
        for step in stride(from: -2_000_000_000, to: 4_000_000_000, by: 7_919_993) {
            let date = Date(timeIntervalSince1970: Double(step))
            #expect(FeedDate.parse(FeedDate.rfc822(date)) == date, "\(step)")
        }
    }

    /// A leap second is read as the second before it, not refused and not the next minute.
    @Test func aLeapSecond() {
        #expect(seconds("2016-12-31T23:59:60Z") == seconds("2016-12-31T23:59:59Z"))
    }
}
