import Foundation
import Testing
@testable import BlogctlKit
import CoreKit
@testable import BlogctlEngines

/// Issue 64: `MarkupScanner` follows libxml2 2.9's reading of markup, a shadow that could drift
/// unseen when the library changes (2.14 rewrote its HTML tokenizer). Replayed here against the
/// libxml2 installed on this machine (the one `make check` runs with): every element libxml2
/// opens must open where the scanner is inside a start tag, over the bodies in data/, the
/// openings the last passes found, and seeded documents made of every kind of markup.
@Suite struct MarkupReplayTests {
    static let data = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("data/blog/bodies")

    @Test func theScannerOpensEveryTagWhereLibXML2Does() throws {
        var documents = try FileManager.default.contentsOfDirectory(atPath: Self.data.path).sorted().map {
            try [UInt8](Data(contentsOf: Self.data.appendingPathComponent($0)))
        }
        #expect(documents.count >= 5)
        for opening in MarkupReadingTests.openings {
            documents.append(Array(("<p>x" + opening + "<div>x<b class=a>y</b><i>z</i></div><span>w</span>").utf8))
        }
        var random = SeededGenerator(seed: 64)
        for _ in 0..<3000 { documents.append(Self.document(&random)) }
        var elements = 0
        for document in documents {
            let disagreement = try MarkupReplay.firstDisagreement(document)
            #expect(disagreement == nil, "\(disagreement?.description ?? ""), in \(String(decoding: document, as: UTF8.self).debugDescription)")
            elements += try MarkupReplay.openings(document).count
        }
        #expect(elements > 30_000, "\(elements) elements compared")
    }

    /// The replay says where the two part: a scanner started inside a comment misses the tags
    /// libxml2 opens.
    @Test func aDisagreementIsNamed() throws {
        var astray = MarkupScanner()
        for byte in "<!--".utf8 { _ = astray.step(byte) }
        let disagreement = try #require(try MarkupReplay.firstDisagreement(Array("<div>x</div>".utf8), scanner: astray))
        #expect(disagreement.element == "div" && disagreement.offset == 4, "\(disagreement)")
        #expect(disagreement.description.contains("opens <div> at byte 4, where MarkupScanner reads comment"), "\(disagreement)")
        #expect(try MarkupReplay.firstDisagreement(Array("<div>x</div>".utf8)) == nil)
    }

    /// A document of the markup that scanners get wrong: stray and mismatched quotes, comments
    /// that end early or late, declarations, processing instructions, raw text and its false
    /// ends, end tags with attributes, NUL bytes, entities, CJK text.
    /// `HTMLStream` skips raw text and comments to the one byte that can change the scanner
    /// (`onlyChangedBy`): over the seeded documents and long comments and scripts, any other
    /// byte there leaves the scanner exactly as it was, and the skip was taken.
    @Test func aSkippedByteNeverChangesTheScanner() {
        var random = SeededGenerator(seed: 6_464)
        var skippable = 0
        for round in 0..<600 {
            var document = Self.document(&random)
            if round % 3 == 0 { document += Array("<script>a < b </scrip </SCRIPT".utf8) }
            if round % 3 == 1 { document += Array("<!-- a - b -- c --! d -->".utf8) }
            var scanner = MarkupScanner()
            for byte in document {
                if let only = scanner.onlyChangedBy, byte != only {
                    var stepped = scanner
                    stepped.step(byte)
                    #expect(stepped == scanner, "byte \(byte) changed \(scanner.state)")
                    skippable += 1
                }
                scanner.step(byte)
            }
        }
        #expect(skippable > 10_000)
    }

    /// `HTMLStream` reads a plain start or end tag whole (`readBareTag`, `readPlainTag`): over the seeded
    /// documents, wherever the scanner has just read a `<`, reading whole leaves it exactly as
    /// stepping to the same byte does, or reads nothing; and it was taken often, for start
    /// tags and end tags, also where the tag runs to the end of what is given.
    @Test func aTagReadWholeIsTheTagStepped() {
        var random = SeededGenerator(seed: 6_465)
        var read = (start: 0, end: 0, refused: 0, bare: 0)
        for _ in 0..<600 {
            let document = Self.document(&random)[...]
            var scanner = MarkupScanner()
            for (index, byte) in zip(document.indices, document) {
                scanner.step(byte)
                guard scanner.state == .open else { continue }
                let end = Bool.random(using: &random) ? document.endIndex : Int.random(in: index...document.endIndex, using: &random)
                var bare = scanner
                if let after = bare.readBareTag(document, at: index, before: end) {
                    var stepped = scanner
                    for byte in document[(index + 1)..<after] { stepped.step(byte) }
                    #expect(bare == stepped, "\(String(decoding: document[index..<after], as: UTF8.self))")
                    read.bare += 1
                } else {
                    #expect(bare == scanner)
                }
                var whole = scanner
                guard let after = whole.readPlainTag(document, at: index, before: end) else {
                    #expect(whole == scanner)
                    read.refused += 1
                    continue
                }
                #expect(after <= end)
                var stepped = scanner
                for byte in document[(index + 1)..<after] { stepped.step(byte) }
                #expect(whole == stepped, "\(String(decoding: document[index..<after], as: UTF8.self))")
                if document[index + 1] == UInt8(ascii: "/") { read.end += 1 } else { read.start += 1 }
            }
        }
        #expect(read.start > 1_000 && read.end > 1_000 && read.refused > 1_000 && read.bare > 1_000, "\(read)")
    }

    static func document(_ random: inout SeededGenerator) -> [UInt8] {
        let pieces = ["<div>", "</div>", "<b a=\"x>y\">", "<b a='x\"y'>", "<i a=x\"y>", "<span \"a\"=b>", "<em a= '>'>",
                      "<a href=/x\"y title'>", "</a>", "<!-- c -->", "<!-- x --!>", "<!--->", "<!---->", "<!-- <div> -->",
                      "<!DOCTYPE html>", "<!DOCTYPE x SYSTEM \"a>b\">", "<!x '>", "<!-x \"<i>", "<? pi \">", "</ ", "</ <i>",
                      "</i a=\">", "<script>a<div>b</script>", "<script>x</scripts><b></script>", "<style></stylex><u></style>",
                      "<script/>", "<b\0>", "<br>", "<br/>", "<img src=x alt=\"<b>\">", "<p>", "text", " ", "&amp;", "&lt;b&gt;",
                      "東京", "<x-custom a='<b>'>", "<table><tr><td>", "</td></tr></table>", "<ul><li>", "<svg><g></g></svg>",
                      "<textarea><b></textarea>", "<title><i></title>", "< b>", "<3", "<>", "<a\nhref=x>", "<b/c>", "<b =x>", "\"", "'"]
        var text = ""
        for _ in 0..<Int.random(in: 5...40, using: &random) { text += pieces.randomElement(using: &random)! }
        return Array(text.utf8)
    }
}
