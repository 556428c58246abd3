import Foundation
import TestSupport
import Testing
import ToolboxKit
@testable import BlogctlKit

/// `listing.tsv`, the listing blogctl kept before the library: still read, to take it in.
@Suite struct SavedListingTests {
    /// A date is written as whole seconds when it is whole, else as a Double, and reads back
    /// as it was either way.
    @Test func datesAreWrittenAsTheyReadBack() throws {
        #expect(ListingFile.seconds(Date(timeIntervalSince1970: 1_700_000_000)) == "1700000000")
        #expect(ListingFile.seconds(Date(timeIntervalSince1970: -86_400)) == "-86400")
        #expect(ListingFile.seconds(Date(timeIntervalSince1970: 1.5)) == "1.5")
        let dates = [1_700_000_000.25, -0.5, 0, 1e16, -62_135_596_800].map { Date(timeIntervalSince1970: $0) }
        let posts = dates.enumerated().map { number, date in
            PostMetadata(id: "d\(number)", title: "", publishDate: date, postId: "d\(number)", summary: "",
                         author: Author(name: "", image: "", title: ""))
        }
        #expect(try ListingFile.decode(ListingFile.encode(posts)).get().map(\.publishDate) == dates)
    }

    /// The word-at-a-time test for a byte to escape agrees with a byte-at-a-time one, for
    /// every length around a word and every place of the byte (a word's edge included), and
    /// for bytes next to the four (0x08, 0x0B, 0x5B, 0xDC, which share all but a bit).
    @Test func theWordAtATimeEscapeTestAgreesWithAByteAtATimeOne() {
        var random = SeededGenerator(seed: 4_649)
        let near: [UInt8] = [0x08, 0x0B, 0x0C, 0x0E, 0x5B, 0x5D, 0x7C, 0x89, 0x8A, 0xDC, 0x00, 0xFF, 0x61]
        let special: [UInt8] = [0x09, 0x0A, 0x0D, 0x5C]
        for _ in 0..<20_000 {
            let count = Int.random(in: 0...40, using: &random)
            var bytes = (0..<count).map { _ in Bool.random(using: &random) ? near.randomElement(using: &random)! : UInt8.random(in: 0...255, using: &random) }
            bytes = bytes.map { special.contains($0) ? 0x61 : $0 }
            if count > 0, Bool.random(using: &random) { bytes[Int.random(in: 0..<count, using: &random)] = special.randomElement(using: &random)! }
            let expected = bytes.contains { special.contains($0) }
            #expect(bytes.withUnsafeBufferPointer { ListingFile.needsEscaping($0) } == expected, "\(bytes)")
        }
    }

    /// Any text in any field comes back as it went: tabs, newlines, backslashes, emoji, CR.
    @Test func everyFieldRoundTripsWhateverItHolds() throws {
        var generator = SeededGenerator(seed: 39)
        let pieces = ["\t", "\n", "\r", "\\", "\\t", "a", "é", "👨‍👩‍👧", " ", "\u{0}", "東京", "\""]
        func text() -> String { (0..<Int.random(in: 0...6, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined() }
        let posts = (0..<300).map { number in
            let dated = number % 5 != 0
            let feed = number % 3 == 0
            return PostMetadata(id: text() + "\(number)", title: text(),
                                publishDate: dated ? Date(timeIntervalSince1970: Double.random(in: -1e10...1e10, using: &generator)) : nil,
                                postId: text(), summary: text(), author: Author(name: text(), image: text(), title: text()),
                                link: feed ? "https://example.org/" + text() + "x" : nil, base: feed ? text() + "b" : nil)
        }
        let decoded = try ListingFile.decode(ListingFile.encode(posts)).get()
        #expect(decoded == posts)
        // Damage is said, never half-read.
        var cut = ListingFile.encode(posts)
        cut.removeLast(3)
        #expect(throws: ListingFile.Damage.self) { try ListingFile.decode(cut).get() }
        #expect(throws: ListingFile.Damage.self) { try ListingFile.decode(Array("[{\"id\": 1}]".utf8)).get() }
    }

    /// A listing of the version before feeds (eight fields) is still read: an upgrade is no damage.
    @Test func theFirstVersionIsStillRead() throws {
        let old = "blogctl listing 1\n7\tp7\t1530000000.0\tTitle\tSummary\tAda\t/images/a.jpg\tAnalyst\n"
        let posts = try ListingFile.decode(Array(old.utf8)).get()
        #expect(posts == [PostMetadata(id: "7", title: "Title", publishDate: Date(timeIntervalSince1970: 1_530_000_000), postId: "p7",
                                       summary: "Summary", author: Author(name: "Ada", image: "/images/a.jpg", title: "Analyst"))])
        #expect(throws: ListingFile.Damage.self) { try ListingFile.decode(Array("blogctl listing 1\n7\tp7\t\tT\n".utf8)).get() }
    }
}
