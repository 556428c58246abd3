import Foundation
import TestSupport
import Testing
import ToolboxKit
@testable import BlogctlKit

/// The listing `list` and `ui` keep beside the cache, which `ui` opens with offline.
@Suite struct SavedListingTests {
    @Test func aListingSurvivesTheRoundTripInAPrivateFile() throws {
        let root = TemporaryFolders.make("blogctl-listing")
        let cache = PostCache(directory: root + "/blogctl/posts")
        #expect(try cache.savedListing() == nil)
        try cache.saveListing(Fixtures.posts)
        #expect(cache.listingPath == root + "/blogctl/listing.tsv")
        #expect(try cache.savedListing() == Fixtures.posts)
        var info = stat()
        #expect(stat(cache.listingPath, &info) == 0 && info.st_mode & 0o777 == 0o600)
    }

    /// A listing of several MiB is written a piece at a time and reads back whole, escapes
    /// and all, whatever piece a post falls across.
    @Test func aLongListingIsWrittenInPiecesAndReadsBackWhole() throws {
        let root = TemporaryFolders.make("blogctl-listing")
        let cache = PostCache(directory: root + "/blogctl/posts")
        let posts = (0..<6000).map { number in
            PostMetadata(id: "entry-\(number)", title: "Title \(number)\twith a tab", publishDate: Date(timeIntervalSince1970: Double(number) * 3600),
                         postId: "entry-\(number)", summary: String(repeating: "summary \\ \(number) ", count: 30),
                         author: Author(name: "Ada", image: "", title: ""), link: "https://blog.example/\(number)", base: "https://blog.example/")
        }
        try cache.saveListing(posts)
        var info = stat()
        #expect(stat(cache.listingPath, &info) == 0 && info.st_size > 3 << 20)
        #expect(try cache.savedListing() == posts)
        var pieces = 0
        ListingFile.encode(posts) { _ in pieces += 1 }
        #expect(pieces >= 3)
    }

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

    /// The ids beside the listing, for the shell's Tab: one a line in the list's order, an id
    /// holding a line break (which no line could hold) left out; an empty list is one newline.
    @Test func theIDsFileIsOneIDALine() throws {
        let root = TemporaryFolders.make("blogctl-listing")
        let cache = PostCache(directory: root + "/blogctl/posts")
        func post(_ id: String) -> PostMetadata {
            PostMetadata(id: id, title: "t", publishDate: nil, postId: id, summary: "", author: Author(name: "", image: "", title: ""))
        }
        try cache.saveListing(["b", "a\nb", "é", "c\r\nd", "x\ry", "z z"].map(post))
        #expect(try String(contentsOfFile: cache.idsPath, encoding: .utf8) == "b\né\nz z\n")
        try cache.saveListing([])
        #expect(try String(contentsOfFile: cache.idsPath, encoding: .utf8) == "\n")
    }

    @Test func aDamagedListingIsAnErrorThatSaysWhatWritesItAgain() throws {
        let root = TemporaryFolders.make("blogctl-listing")
        let cache = PostCache(directory: root + "/blogctl/posts")
        try cache.saveListing([])
        try LocalFile.writeAtomically(cache.listingPath, Array("[{\"id\": 1".utf8))
        #expect(throws: ToolError.self) { try cache.savedListing() }
        do { _ = try cache.savedListing() } catch { #expect(error.message.contains("blogctl list writes it again")) }
    }

    @Test func aSymlinkInItsPlaceIsNotFollowed() throws {
        let root = TemporaryFolders.make("blogctl-listing")
        let cache = PostCache(directory: root + "/blogctl/posts")
        try cache.saveListing(Fixtures.posts)
        unlink(cache.listingPath)
        symlink("/etc/passwd", cache.listingPath)
        #expect(try cache.savedListing() == nil)
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
