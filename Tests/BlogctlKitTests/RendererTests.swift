import Foundation
import Testing
import ToolboxKit
@testable import BlogctlKit
@testable import BlogctlEngines

@Suite struct RendererTests {
    /// The body rendered; a failure to render (libxml2 not opened) is the calling test's issue.
    static func render(_ html: String, width: Int = 60, format: RenderFormat = .text, styled: Bool = false) -> String {
        do {
            return String(decoding: try PostPage.renderBody(Array(html.utf8), options: RenderOptions(format: format, width: width, styled: styled)),
                          as: UTF8.self)
        } catch {
            Issue.record(error)
            return ""
        }
    }

    static func hasTerminalControls(_ text: String, allowSGR: Bool = false) -> Bool {
        text.unicodeScalars.contains { scalar in
            let value = scalar.value
            if value == 0x1B { return !allowSGR }
            return (value < 0x20 && value != 0x0A) || (0x7F...0x9F).contains(value)
        }
    }

    @Test func aC1ControlFromAnEntityNeverArrives() {
        // libxml2 decodes &#155; to U+009B, a one-byte CSI a terminal obeys.
        for format in [RenderFormat.text, .markdown] {
            let text = Self.render("<p>a&#155;31mred &#27;[2J &#x9b;b</p><p title='&#155;'>x</p>", format: format)
            #expect(!Self.hasTerminalControls(text))
            #expect(text.contains("red"))
        }
    }

    @Test func rawControlsInTitleAndBodyNeverArrive() throws {
        var metadata = Fixtures.posts[0]
        metadata.title = "Title\u{1B}]0;owned\u{07}\u{9B}2J"
        metadata.author.name = "Name\u{1B}[31m"
        let page = String(decoding: try PostPage.render(metadata, body: Array("<p>body\u{1B}[5m".utf8) + [0xC2, 0x9B] + Array("</p>".utf8),
                                                    options: RenderOptions(styled: false)), as: UTF8.self)
        #expect(!Self.hasTerminalControls(page))
        #expect(page.hasPrefix("Title]0;owned2J\n"))
    }

    @Test func styledOutputHasOnlyOurOwnSGRSequences() {
        let text = Self.render("<p><b>bold \u{1B}[31m</b> plain</p>", styled: true)
        #expect(!Self.hasTerminalControls(text, allowSGR: true))
        let sequences = text.split(separator: "\u{1B}").dropFirst().map { String($0.prefix { $0 != "m" }) }
        #expect(sequences.allSatisfy { ["[0", "[0;1", "[0;4", "[0;1;4"].contains($0) }, "\(sequences)")
    }

    @Test func rawHTMLFormatIsSanitisedToo() throws {
        let text = String(decoding: try PostPage.render(Fixtures.posts[0], body: Array("<p>\u{1B}[2J".utf8) + [0xC2, 0x9B] + Array("x</p>".utf8),
                                                    options: RenderOptions(format: .html)), as: UTF8.self)
        #expect(text == "<p>[2Jx</p>\n")
    }

    @Test func invalidUTF8IsDroppedNotFatal() throws {
        let body: [UInt8] = Array("<p>ok ".utf8) + [0xFF, 0xC3, 0x28, 0xED, 0xA0, 0x80] + Array(" still</p>".utf8)
        let text = String(decoding: try PostPage.renderBody(body, options: RenderOptions()), as: UTF8.self)
        #expect(text.contains("ok"))
        #expect(text.contains("still"))
    }

    @Test func deepNestingDoesNotCrash() {
        for (open, close) in [("<div>", "</div>"), ("<blockquote>", "</blockquote>"), ("<ul><li>", "</li></ul>"),
                              ("<b>", "</b>"), ("<table><tr><td>", "</td></tr></table>")] {
            let html = String(repeating: open, count: 100_000) + "deep text" + String(repeating: close, count: 100_000)
            let text = Self.render(html)
            // libxml2 stops nesting at its limit (we never pass XML_PARSE_HUGE): output, not a crash.
            #expect(text.utf8.count < 10_000_000)
        }
    }

    @Test func aNestedTableIsEscapedForMarkdownOnce() {
        // Found by fuzzing (a timeout): a nested table's cells, escaped when read, were escaped
        // again in the cell around it, doubling every backslash at each level: 2^depth bytes.
        let html = String(repeating: "<table><tr><td>a|b ", count: 16) + "x"
        let markdown = Self.render(html, format: .markdown)
        #expect(markdown.utf8.count < 2_000)
        #expect(markdown.contains("a\\|b"))
        #expect(!markdown.contains("\\\\"))
        #expect(Self.render(html).utf8.count < 2_000)
    }

    @Test func unclosedDeepNestingDoesNotCrash() {
        let text = Self.render(String(repeating: "<ol><li>x", count: 100_000))
        #expect(text.contains("x"))
        let lines = text.split(separator: "\n")
        #expect(lines.allSatisfy { TextWidth.of(String($0)) <= 200 }, "indentation stops growing")
    }

    @Test func hugeInputGivesOutput() {
        // 50 MB: one text node far past libxml2's 10 MB text limit, then many small paragraphs.
        let giant = "<p>" + String(repeating: "word ", count: 10_000_000) + "</p>"
        #expect(!Self.render(giant).isEmpty)
    }

    @Test func truncatedHTMLGivesWhatThereIs() {
        let text = Self.render("<h1>Title</h1><p>First para</p><ul><li>item one<li>item tw")
        #expect(text.contains("Title"))
        #expect(text.contains("• item tw"))
    }

    @Test func emptyBodies() {
        #expect(Self.render("") == "")
        #expect(Self.render("   \n\n  ") == "")
        #expect(Self.render("<html></html>") == "")
    }

    @Test func wideCharactersCountTwoColumns() {
        let text = Self.render("<p>" + String(repeating: "漢字 ", count: 30) + "</p>", width: 20)
        for line in text.split(separator: "\n") { #expect(TextWidth.of(String(line)) <= 20) }
    }

    /// Issue 64: a word wider than the line is broken at the width, as lynx and w3m break it;
    /// the rest of it starts the next line, and what follows goes on from there.
    @Test func aWordLongerThanTheWidthIsBrokenAtTheWidth() {
        let long = String(repeating: "x", count: 50)
        let twenty = String(repeating: "x", count: 20)
        #expect(Self.render("<p>a \(long) b</p>", width: 20) == "a\n\(twenty)\n\(twenty)\nxxxxxxxxxx b\n")
        // Glued runs make one word too.
        let spans = String(repeating: "<span>ab</span>", count: 30)
        #expect(Self.render("<p>\(spans)</p>", width: 25).split(separator: "\n").map(\.count) == [25, 25, 10])
    }

    @Test func markdownEscapesItsSpecialCharacters() {
        #expect(Self.render("<p>a *star* _under_ [x] `t`</p>", format: .markdown) == "a \\*star\\* \\_under\\_ \\[x\\] \\`t\\`\n")
    }

    @Test func markdownFenceOutgrowsBackticksInCode() {
        let text = Self.render("<pre>a ``` b</pre>", format: .markdown)
        #expect(text.hasPrefix("````\n"))
    }

    @Test func plainTextDetection() {
        #expect(!PostPage.looksLikeHTML(Array("a < b and c > d".utf8)))
        #expect(!PostPage.looksLikeHTML(Array("x <3".utf8)))
        #expect(PostPage.looksLikeHTML(Array("x <p>y".utf8)))
        #expect(PostPage.looksLikeHTML(Array("<!-- c -->".utf8)))
    }

    @Test func headerHasTitleAuthorAndDate() throws {
        let page = String(decoding: try PostPage.render(Fixtures.posts[0], body: Array("<p>Body.</p>".utf8),
                                                    options: RenderOptions()), as: UTF8.self)
        let lines = page.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[0] == "zebra crossings")
        #expect(lines[1] == "===============")
        #expect(lines[3].hasPrefix("By Ada Lovelace, Writer · 2018-08-"))
        #expect(lines[5] == "Body.")
    }
}

@Suite struct LinkResolverTests {
    let resolver = LinkResolver(document: "http://127.0.0.1:8106/post/7")

    @Test func resolvesEveryKindOfReference() {
        #expect(resolver.resolve("https://example.com/x") == "https://example.com/x")
        #expect(resolver.resolve("mailto:a@b.c") == "mailto:a@b.c")
        #expect(resolver.resolve("//cdn.test/a.js") == "http://cdn.test/a.js")
        #expect(resolver.resolve("/images/a.jpg") == "http://127.0.0.1:8106/images/a.jpg")
        #expect(resolver.resolve("other") == "http://127.0.0.1:8106/post/other")
        #expect(resolver.resolve("../images/a.jpg") == "http://127.0.0.1:8106/images/a.jpg")
        #expect(resolver.resolve("../../../../x") == "http://127.0.0.1:8106/x")
        #expect(resolver.resolve("./a/./b/../c?q=1#f") == "http://127.0.0.1:8106/post/a/c?q=1#f")
        #expect(resolver.resolve("#top") == "http://127.0.0.1:8106/post/7#top")
        #expect(resolver.resolve("?page=2") == "http://127.0.0.1:8106/post/7?page=2")
        #expect(resolver.resolve("  /spaced  ") == "http://127.0.0.1:8106/spaced")
        #expect(resolver.resolve("") == "http://127.0.0.1:8106/post/7")
    }
}

/// Issue 17: rendering cost must not depend on the longest run or the widest row.
@Suite struct RenderingCostTests {
    @Test func aMarkdownFenceIsLongerThanEveryBacktickRunInside() {
        let text = RendererTests.render("<pre>a ``` b ````` c ``</pre>", format: .markdown)
        #expect(text == "``````\na ``` b ````` c ``\n``````\n")
        #expect(RendererTests.render("<pre>plain</pre>", format: .markdown) == "```\nplain\n```\n")
    }

    @Test func aLongBacktickRunRendersAtOnce() {
        // 65,000 backticks took more than a minute when the fence grew one at a time.
        let text = RendererTests.render("<pre>" + String(repeating: "`", count: 65_000) + "</pre>", format: .markdown)
        let fence = String(repeating: "`", count: 65_001)
        #expect(text == fence + "\n" + String(repeating: "`", count: 65_000) + "\n" + fence + "\n")
    }

    @Test func narrowingMatchesTheStepwiseRule() {
        var generator = SeededGenerator(seed: 17)
        for _ in 0..<2_000 {
            let columns = Int.random(in: 1...9, using: &generator)
            let widths = (0..<columns).map { _ in Int.random(in: 1...40, using: &generator) }
            let least = widths.map { min($0, Int.random(in: 1...12, using: &generator)) }
            let available = Int.random(in: columns...(widths.reduce(0, +) + 5), using: &generator)
            #expect(TableLayout.narrowed(widths, least: least, toFit: available) == Self.stepwise(widths, least: least, available: available),
                    "\(widths) \(least) \(available)")
        }
    }

    /// The rule as it was first written: one column a step, the first of the widest.
    static func stepwise(_ start: [Int], least: [Int], available: Int) -> [Int] {
        var widths = start
        while widths.reduce(0, +) > available {
            guard let widest = widths.indices.filter({ widths[$0] > least[$0] }).max(by: { widths[$0] < widths[$1] }) else { break }
            widths[widest] -= 1
        }
        return widths
    }

    @Test func aRowWiderThanTheScreenIsStacked() {
        let cells = (1...40).map { "<td>c\($0)</td>" }.joined()
        let text = RendererTests.render("<table><tr><th>h1</th><th>h2</th></tr><tr>" + cells + "</tr></table>", width: 60)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.prefix(4) == ["h1", "h2", "", "c1"])
        #expect(lines.allSatisfy { $0.count <= 60 })
    }

    /// A table's rows are written straight into the page after the prefixes of what holds
    /// it: the trailing padding of a row ending in empty cells (and of the rule under its
    /// header) is cut back to the row, never into the prefix (an empty row keeps no trailing
    /// spaces either, as a blank line), and a bold header wraps the row alone.
    @Test func aTableInAListAndAQuoteKeepsItsPrefixes() {
        let table = "<table><tr><th>h1</th><th>h2</th><th></th></tr><tr><td>a</td><td></td><td></td></tr>"
            + "<tr><td></td><td></td></tr></table>"
        let text = RendererTests.render("<ul><li>" + table + "</li></ul><blockquote>" + table + "</blockquote>", width: 40)
        #expect(text == "• h1  h2\n  --  --\n  a\n\n\n    h1  h2\n    --  --\n    a\n\n")
        let styled = RendererTests.render("<ul><li>" + table + "</li></ul>", width: 40, styled: true)
        #expect(styled.hasPrefix("• \u{1B}[0;1mh1  h2\u{1B}[0m\n  --"))
    }

    @Test func outputGrowsLinearlyWithAWideRowAndATallCell() {
        // Side by side, a tall cell beside thousands of empty ones repeated their padding on
        // every line: output grew with the product of the two.
        let row = String(repeating: "<td></td>", count: 5_000) + "<td>" + String(repeating: "w ", count: 5_000) + "</td>"
        let text = RendererTests.render("<table><tr>" + row + "</tr></table>", width: 80)
        #expect(text.utf8.count < 20_000)
    }

    /// An image's label is put together from libxml2's bytes when its alt text is printable
    /// ASCII once trimmed: the same word as the String path (the value sanitised, trimmed, then
    /// appended as a word) for alt texts of blanks, controls, non-ASCII and bidi controls.
    @Test func anImageLabelIsTheSameWhicheverPathMakesIt() {
        let pieces = [" ", "\t", "\n", "\r", "\u{0B}", "\u{0C}", "a", "Z", "~", "[", "é", "東", "\u{202E}", "\u{1B}", "\u{85}", "\u{7F}"]
        var random = SeededGenerator(seed: 641)
        var printable = 0
        for round in 0..<600 {
            let alt = (0..<Int.random(in: 0...6, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
            let name = Array("alt".utf8CString).map { UInt8(bitPattern: $0) }
            let value = Array(alt.utf8CString).map { UInt8(bitPattern: $0) }
            name.withUnsafeBufferPointer { name in
                value.withUnsafeBufferPointer { value in
                    var pairs: [UnsafePointer<UInt8>?] = [name.baseAddress, round % 50 == 0 ? nil : value.baseAddress, nil, nil]
                    if round % 50 == 0 { pairs = [name.baseAddress, nil, nil] }
                    pairs.withUnsafeMutableBufferPointer { pairs in
                        let attributes = HTMLAttributes(pairs: pairs.baseAddress)
                        let renderer = BodyRenderer(options: RenderOptions(format: .text, width: 200, styled: false)) { _ in }
                        renderer.addImage(attributes)
                        let label = attributes.value("alt")?.trimmingSpaces() ?? ""
                        var expected = InlineText()
                        expected.appendWord(label.isEmpty ? "[image]" : "[image: \(label)]")
                        #expect(renderer.inline.singleLine == expected.singleLine, "alt \(alt.debugDescription)")
                        if label.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { printable += 1 }
                    }
                }
            }
        }
        #expect(printable > 100)
        #expect(RendererTests.render("<p><img alt=\" a b\t\"></p>") == "[image: a b]\n")
    }

    /// A link's marker written digit by digit is the one its String would write.
    @Test func aMarkerIsWrittenAsItsString() {
        for number in [0, 7, 10, 99, 10_000, 123_456_789, Int.max, Int.min] {
            var digits = InlineText(), string = InlineText()
            digits.append(collapsing: Array("word".utf8))
            string.append(collapsing: Array("word".utf8))
            digits.appendGlued(marker: number)
            string.appendGlued("[\(number.magnitude)]")
            #expect(digits.singleLine == string.singleLine && digits.singleLineWidth == string.singleLineWidth, "\(number)")
        }
    }

    /// Issue 65: an entry without an author (most feeds' items) shows its date alone, never
    /// `By  ·`; a title alone still reads as the author.
    @Test func aBylineWithoutAnAuthorIsTheDate() {
        var metadata = Fixtures.post("1", "Title", "2018-08-01T00:00:00Z", "Ada")
        let date = DateDisplay.human(metadata.publishDate)
        metadata.author.title = "Analyst"
        #expect(PostPage.byline(metadata) == "By Ada, Analyst · " + date)
        metadata.author.name = ""
        #expect(PostPage.byline(metadata) == "By Analyst · " + date)
        metadata.author.title = ""
        #expect(PostPage.byline(metadata) == date)
    }
}
