import CoreKit
import Foundation
import Testing
@testable import BlogctlKit
@testable import BlogctlEngines

/// Issue 64: one bound at the one door every byte of a block comes in by, and lines that never
/// grow past the page's width, whatever the markup glues; run at sizes just past each cap
/// (the long runs, 50 and 250 MB, are `bench/render-shapes`).
@Suite struct RendererCutTests {
    /// The page `html` renders to (text, `width` columns, link list included) and the work the
    /// layout did (`BodyRenderer.work`: bytes stored and walked by the paragraph's and the
    /// cells' drains, and bytes written).
    static func render(_ html: [UInt8], width: Int = 80, format: RenderFormat = .text) throws -> (page: String, work: Int) {
        var page: [UInt8] = []
        let renderer = BodyRenderer(options: RenderOptions(format: format, width: width, styled: false)) { page += $0 }
        try PostPage.renderBody(html, into: renderer)
        renderer.appendLinkList()
        renderer.finish()
        return (String(decoding: page, as: UTF8.self), renderer.work)
    }

    static func repeated(_ piece: String, bytes: Int, open: String = "<p>") -> [UInt8] {
        Array((open + String(repeating: piece, count: bytes / piece.utf8.count)).utf8)
    }

    static func widest(_ page: String) -> Int { page.split(separator: "\n").map { TextWidth.of(String($0)) }.max() ?? 0 }

    /// A paragraph of one link repeated past the paragraph's cut (1 MiB of text, 4 bytes a
    /// link: `x[1]`): the cut is marked once, nothing of the paragraph follows it (no word, no
    /// marker), no line is wider than the page, and the link list holds the one target.
    @Test func oneLinkRepeatedPastTheCutAddsNothingAfterIt() throws {
        let links = RenderBounds.paragraphLimit / 4 + 20_000
        let (page, _) = try Self.render(Self.repeated("<a href=\"/l\">x</a> ", bytes: links * 19))
        #expect(Self.widest(page) <= 80)
        let cut = try #require(page.range(of: InlineText.cutMark))
        #expect(page.components(separatedBy: InlineText.cutMark).count == 2, "cut marked once")
        let after = page[cut.upperBound...]
        #expect(!after.contains("x[1]"), "nothing of the paragraph after its cut")
        #expect(after.contains("Links:\n[1] ") && after.hasSuffix("/l\n") && !after.contains("[2]"), "\(after.suffix(80))")
    }

    /// Every target new: past the cut no link is numbered or listed (its marker would not be
    /// shown), and the page still ends with the list of those shown.
    @Test func newTargetsPastTheCutAreNotNumbered() throws {
        let count = RenderBounds.paragraphLimit / 12 + 2_000
        var html = "<p>"
        for number in 0..<count { html += "<a href=\"/\(number)\">w</a> " }
        let (page, _) = try Self.render(Array(html.utf8))
        let shown = page.components(separatedBy: "\n").first { $0.contains(InlineText.cutMark) } ?? ""
        #expect(!shown.isEmpty)
        let listed = page.components(separatedBy: "\n").filter { $0.hasPrefix("[") && $0.contains(" /") }
        #expect(listed.count <= LinkNumbers.limit)
        #expect(!page.contains("[\(LinkNumbers.limit + 1)]"))
    }

    /// Links numbered as the documented rule says, whatever repeats: a target's number is its
    /// place among the first `linkLimit` targets; past them a new target is counted, not
    /// numbered. Seeded links, many repeating the one before (the renderer knows those
    /// without a lookup), others earlier targets or new ones, across the limit, paragraph by
    /// paragraph (below each paragraph's cut); some not ASCII (looked up the long way).
    @Test func linksAreNumberedByTheRuleWhateverRepeats() throws {
        var random = SeededGenerator(seed: 6_465)
        var hrefs: [String] = []
        var fresh = 0
        for _ in 0..<36_000 {
            let roll = Int.random(in: 0..<10, using: &random)
            if roll < 5, let last = hrefs.last { hrefs.append(last) }
            else if roll < 7, !hrefs.isEmpty { hrefs.append(hrefs[Int.random(in: 0..<min(hrefs.count, 40), using: &random)]) }
            else { fresh += 1; hrefs.append(fresh % 7 == 0 ? "http://h.test/é\(fresh)" : "http://h.test/\(fresh)") }
        }
        var numbers: [String: Int] = [:]
        var expected: [String] = []
        var beyond = 0
        for href in hrefs {
            if let number = numbers[href] { expected.append("w[\(number)]") }
            else if numbers.count < LinkNumbers.limit { numbers[href] = numbers.count + 1; expected.append("w[\(numbers.count)]") }
            else { beyond += 1; expected.append("w") }
        }
        var html = ""
        for (index, href) in hrefs.enumerated() { html += (index % 500 == 0 ? "<p>" : "") + "<a href=\"\(href)\">w</a> " }
        let (page, _) = try Self.render(Array(html.utf8), width: 100_000)
        let words = page.split(whereSeparator: { $0 == " " || $0 == "\n" }).filter { $0.hasPrefix("w") }.map(String.init)
        #expect(words == expected)
        #expect(page.contains("[…] \(beyond) more links, past the first \(LinkNumbers.limit), not numbered"), "\(beyond)")
    }

    /// Glued inline runs, one link repeated, `w&nbsp;` repeated, Japanese without spaces: the
    /// layout's work grows as the input does (doubling the input at most doubles it, with
    /// slack), and no line is wider than the page, in text and in Markdown.
    @Test(arguments: [("<span>a</span>", "spans"), ("<a href=\"/l\">x</a> ", "one link"), ("w&nbsp;", "w&nbsp;"),
                      ("東京の天気は晴れです。", "Japanese"), ("<b>a</b>", "bold runs"), ("<a href=\"/l\"></a>", "markers only"),
                      ("<img alt=\"a\">", "images with alt"), ("<img src=x>", "images without alt"), ("a\u{202E}b", "bidi glued"),
                      ("&amp;&lt;", "entities glued"), ("<li>x", "list items"), ("<blockquote>x", "quotes nested")])
    func workGrowsLinearly(_ shape: (piece: String, name: String)) throws {
        try Self.expectLinearWork(open: "<p>", shape.piece, shape.name, bytes: 1 << 20)
    }

    /// The same for what a block holds and for nesting, each shape run past its cap: a table's
    /// rows and one row's cells (1 MiB a part), glued runs in a cell, a `pre` of glued runs
    /// (each piece searched its long line again for a line break) and of one long line (cut
    /// at 1 MiB), of many lines (drained at 64 KiB); tables, divs and lists nested past the
    /// stream's 256 and the indent's 12, list numbers past 32 bits.
    @Test(arguments: [("<table>", "<tr><td>x</td><td>y</td></tr>", "table rows", 1 << 20),
                      ("<table><tr>", "<td>x", "cells of one row", 1 << 20),
                      ("<table><tr><td>", "<span>a</span>", "glued runs in a cell", 1 << 20),
                      ("<pre>", "<span>a</span>", "pre, glued runs", 1 << 20),
                      ("<pre>", "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", "pre, one long line", 1 << 20),
                      ("<pre>", "x\n", "pre, many lines", 256 << 10),
                      ("<p>", "<table><tr><td>x", "tables nested", 64 << 10), ("<p>", "<div>x", "divs nested", 64 << 10),
                      ("<p>", "<ul><li>x", "lists nested", 64 << 10),
                      ("<p>", "<ol start=2147483640><li>x", "list numbers past Int32", 64 << 10)])
    func workGrowsLinearlyInBlocks(_ shape: (open: String, piece: String, name: String, bytes: Int)) throws {
        try Self.expectLinearWork(open: shape.open, shape.piece, shape.name, bytes: shape.bytes)
    }

    static func expectLinearWork(open: String, _ piece: String, _ name: String, bytes: Int) throws {
        for format in [RenderFormat.text, .markdown] {
            let small = try Self.render(Self.repeated(piece, bytes: bytes, open: open), format: format)
            let large = try Self.render(Self.repeated(piece, bytes: 2 * bytes, open: open), format: format)
            let ratio = Double(large.work) / Double(max(small.work, 1))
            #expect(ratio < 2.3, "\(name), \(format): work \(small.work) then \(large.work)")
            if format == .text, !open.hasPrefix("<pre") {
                #expect(Self.widest(large.page) <= 80, "\(name): a line of \(Self.widest(large.page)) columns")
            }
        }
    }

    /// Text without spaces wraps where Unicode allows: a Japanese paragraph of 252 characters
    /// (504 columns) at 80 columns is seven lines, none wider, none starting with closing
    /// punctuation or ending with opening punctuation.
    @Test func japaneseWrapsBetweenCharactersNotAtPunctuation() throws {
        let sentence = "「東京」は日本の首都です。ラーメンが好きです、とても。"  // 26 characters
        let text = String(String(repeating: sentence, count: 10).prefix(252))
        let (page, _) = try Self.render(Array("<p>\(text)</p>".utf8))
        let lines = page.split(separator: "\n").map(String.init)
        #expect(lines.count == 7, "\(lines)")
        #expect(lines.allSatisfy { TextWidth.of($0) <= 80 })
        #expect(!lines.contains { $0.hasPrefix("。") || $0.hasPrefix("、") || $0.hasPrefix("」") || $0.hasSuffix("「") })
        #expect(lines.joined() == text, "nothing added or lost")
    }
}

/// Issue 64: the same bytes give the same page whatever pieces they arrive in (the network's
/// reads, gzip's output): random cuts of seeded documents that hold NUL bytes, quotes inside
/// tags, comments and entities, against the page of the whole.
@Suite struct RendererPiecesTests {
    static let fragments = ["<p>", "</p>", "<a href=\"/x\">", "</a>", "<b a\">", "<i a='", "'>", "\"", "\u{0}", "<!-- c -->",
                            "<!--", "-->", "&amp;", "&nbsp;", "&#0;", "<br>", "<td>", "<table><tr>", "</table>", "word ", "東京",
                            "<script>", "</script>", "<", ">", "=", " ", "\n", "<img alt=\"a\u{0}b\" src=x>", "<div", "</"]

    static func page(_ html: [UInt8], pieces: [Int]) throws -> String {
        var page: [UInt8] = []
        let renderer = BodyRenderer(options: RenderOptions(format: .text, width: 60, styled: false)) { page += $0 }
        try renderer.renderHTML { feed in
            var start = 0
            for size in pieces where start < html.count {
                let end = min(html.count, start + size)
                html[start..<end].withUnsafeBufferPointer { feed($0) }
                start = end
            }
            if start < html.count { html[start...].withUnsafeBufferPointer { feed($0) } }
        }
        renderer.appendLinkList()
        renderer.finish()
        return String(decoding: page, as: UTF8.self)
    }

    @Test func theSameBytesGiveTheSamePageWhateverThePieces() throws {
        var random = SeededGenerator(seed: 64)
        for document in 0..<1000 {
            var html = ""
            for _ in 0..<Int.random(in: 5...80, using: &random) { html += Self.fragments.randomElement(using: &random)! }
            let bytes = Array(html.utf8)
            let whole = try Self.page(bytes, pieces: [bytes.count])
            let bytewise = try Self.page(bytes, pieces: Array(repeating: 1, count: bytes.count))
            #expect(bytewise == whole, "document \(document), a byte at a time: \(html.debugDescription)")
            if bytewise != whole { return }
            for _ in 0..<4 {
                var cuts: [Int] = []
                var total = 0
                while total < bytes.count {
                    let size = Int.random(in: 1...max(1, bytes.count / 3), using: &random)
                    cuts.append(size)
                    total += size
                }
                let cut = try Self.page(bytes, pieces: cuts)
                #expect(cut == whole, "document \(document), pieces \(cuts): \(html.debugDescription)")
                if cut != whole { return }
            }
        }
    }
}

/// The filter that spares a lookup for each new link past the numbered ones never says a
/// string it holds is absent, says so of few it does not hold, and leaves non-ASCII bytes
/// to the long way.
@Suite struct ByteStringFilterTests {
    @Test func noneInsertedIsMissedAndFewOthersPass() {
        var filter = ByteStringFilter(bitCount: 1 << 17)
        func hash(_ text: String) -> UInt64? { Array(text.utf8).withUnsafeBufferPointer { ByteStringFilter.hash($0) } }
        for number in 0..<LinkNumbers.limit { filter.insert(hash("/p/\(number)")!) }
        #expect((0..<LinkNumbers.limit).allSatisfy { filter.mayContain(hash("/p/\($0)")!) })
        let passed = (LinkNumbers.limit..<(LinkNumbers.limit + 100_000)).filter { filter.mayContain(hash("/p/\($0)")!) }.count
        #expect(passed < 5_000, "\(passed) of 100000 passed")
        #expect(hash("/é") == nil && hash("") != nil)
    }
}
