import Foundation
import Testing
import ToolboxKit
@testable import BlogctlKit

@Suite struct RendererTests {
    static func render(_ html: String, width: Int = 60, format: RenderFormat = .text, styled: Bool = false) -> String {
        String(decoding: PostPage.renderBody(Array(html.utf8), options: RenderOptions(format: format, width: width, styled: styled)),
               as: UTF8.self)
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

    @Test func rawControlsInTitleAndBodyNeverArrive() {
        var metadata = Fixtures.posts[0]
        metadata.title = "Title\u{1B}]0;owned\u{07}\u{9B}2J"
        metadata.author.name = "Name\u{1B}[31m"
        let page = String(decoding: PostPage.render(metadata, body: Array("<p>body\u{1B}[5m".utf8) + [0xC2, 0x9B] + Array("</p>".utf8),
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

    @Test func rawHTMLFormatIsSanitisedToo() {
        let text = String(decoding: PostPage.render(Fixtures.posts[0], body: Array("<p>\u{1B}[2J".utf8) + [0xC2, 0x9B] + Array("x</p>".utf8),
                                                    options: RenderOptions(format: .html)), as: UTF8.self)
        #expect(text == "<p>[2Jx</p>\n")
    }

    @Test func invalidUTF8IsDroppedNotFatal() {
        let body: [UInt8] = Array("<p>ok ".utf8) + [0xFF, 0xC3, 0x28, 0xED, 0xA0, 0x80] + Array(" still</p>".utf8)
        let text = String(decoding: PostPage.renderBody(body, options: RenderOptions()), as: UTF8.self)
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

    @Test func aWordLongerThanTheWidthGetsItsOwnLine() {
        let long = String(repeating: "x", count: 50)
        #expect(Self.render("<p>a \(long) b</p>", width: 20) == "a\n\(long)\nb\n")
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

    @Test func headerHasTitleAuthorAndDate() {
        let page = String(decoding: PostPage.render(Fixtures.posts[0], body: Array("<p>Body.</p>".utf8),
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

    @Test func outputGrowsLinearlyWithAWideRowAndATallCell() {
        // Side by side, a tall cell beside thousands of empty ones repeated their padding on
        // every line: output grew with the product of the two.
        let row = String(repeating: "<td></td>", count: 5_000) + "<td>" + String(repeating: "w ", count: 5_000) + "</td>"
        let text = RendererTests.render("<table><tr>" + row + "</tr></table>", width: 80)
        #expect(text.utf8.count < 20_000)
    }
}

/// Issue 29: one sanitising rule for rendered posts, and memory bounded whatever the shape.
@Suite struct RendererBoundsTests {
    static let bidi: [Unicode.Scalar] = ["\u{061C}", "\u{200E}", "\u{200F}", "\u{202A}", "\u{202B}", "\u{202C}", "\u{202D}",
                                         "\u{202E}", "\u{2066}", "\u{2067}", "\u{2068}", "\u{2069}"]

    /// Every bidi control in every kind of block, in text and Markdown, in the title and byline
    /// too: none arrives as itself, each is shown as `<U+XXXX>`.
    @Test func everyBidiControlIsShownInEveryBlockKind() {
        let all = String(String.UnicodeScalarView(Self.bidi))
        let blocks = ["<p>p\(all)p</p>", "<h2>h\(all)h</h2>", "<pre>pre\(all)pre\n\tx\(all)</pre>",
                      "<p><a href='/x\(all)'>link\(all)text</a></p>", "<table><tr><th>h\(all)</th><td>c\(all)</td></tr></table>",
                      "<ul><li>li\(all)</li></ul>", "<ol><li>ol\(all)</li></ol>", "<blockquote>q\(all)</blockquote>",
                      "<p><code>code\(all)</code> <b>b\(all)</b> <i>i\(all)</i></p>", "<dl><dt>t\(all)</dt><dd>d\(all)</dd></dl>",
                      "<p><img alt='alt\(all)' src='/i\(all).png'></p>", "<table><tr><td><table><tr><td>n\(all)</td></tr></table></td></tr></table>"]
        var metadata = Fixtures.posts[0]
        metadata.title = "Title\(all)"
        metadata.author.name = "Name\(all)"
        for format in [RenderFormat.text, .markdown] {
            for block in blocks {
                let page = String(decoding: PostPage.render(metadata, body: Array(block.utf8), options: RenderOptions(format: format, styled: false)),
                                  as: UTF8.self)
                #expect(!page.unicodeScalars.contains { Terminal.isBidiControl($0) }, "\(format) \(block)")
                for scalar in Self.bidi {
                    #expect(page.contains("<U+\(String(scalar.value, radix: 16, uppercase: true))>"), "\(format) \(block)")
                }
            }
        }
    }

    /// A paragraph laid out as its lines complete gives the lines it gives laid out whole.
    @Test func drainingAParagraphChangesNoLine() {
        var random = SeededGenerator(seed: 29)
        let words = ["a", "bb", "ccc", "longerword", "é", "日本語", "x\u{301}", "<b>"]
        for width in [20, 33, 80] {
            var whole = InlineText()
            var drained = InlineText()
            var drainedLines: [[UInt8]] = []
            for index in 0..<5_000 {
                let word = words.randomElement(using: &random)! + (index % 97 == 0 ? "\n" : " ")
                whole.append(collapsing: Array(word.utf8))
                drained.append(collapsing: Array(word.utf8))
                if index % 37 == 0 { drained.drainLines(width: width, styled: false, markdownBreaks: false) { line, _ in drainedLines.append(line) } }
                if index % 501 == 0 {
                    whole.lineBreak()
                    drained.lineBreak()
                }
            }
            drained.forEachLine(width: width, styled: false) { line, _ in drainedLines.append(line) }
            let wholeLines = whole.lines(width: width, styled: false).map(\.bytes)
            #expect(drainedLines == wholeLines, "width \(width)")
        }
    }

    /// Markdown drained early breaks lines only before a word that cannot start a block.
    @Test func markdownSoftBreaksNeverStartABlock() {
        let text = String(repeating: "alpha - 1. # > + beta ", count: 20_000)
        let page = RendererTests.render("<p>" + text + "</p>", format: .markdown)
        let lines = page.split(separator: "\n")
        #expect(lines.count > 1)
        for line in lines.dropFirst() {
            #expect(line.first.map { $0.isLetter } ?? false, "\(line.prefix(20))")
        }
        #expect(page.split(whereSeparator: { $0 == " " || $0 == "\n" }).count == text.split(separator: " ").count)
    }

    /// A `pre` block written line by line keeps every line, and in Markdown a later line with
    /// a longer run of backticks than the fence gets a longer fence.
    @Test func aLargePreIsWrittenWholeAndFenced() {
        let lines = (0..<40_000).map { "line \($0)\tend" }
        let body = "<pre>\n" + lines.joined(separator: "\n") + "\n````` late\n</pre>"
        let text = RendererTests.render(body)
        #expect(text.split(separator: "\n").count == lines.count + 1)
        #expect(text.hasPrefix("    line 0  end\n"))
        let markdown = RendererTests.render(body, format: .markdown)
        #expect(markdown.hasPrefix("```\nline 0"))
        #expect(markdown.contains("```\n``````\n````` late\n``````"))
    }

    @Test func anUnbrokenRunAndAHugeCellAreCutVisibly() {
        let word = RendererTests.render("<p>" + String(repeating: "w", count: 3 << 20) + " after</p>")
        #expect(word.utf8.count < 2 << 20 && word.contains("[…]") && !word.contains("after"))
        let cell = RendererTests.render("<table><tr><td>" + String(repeating: "cell ", count: 100_000) + "</td><td>next</td></tr></table>")
        #expect(cell.utf8.count < 200_000 && cell.contains("[…]") && cell.contains("next"))
        let pre = RendererTests.render("<pre>" + String(repeating: "p", count: 3 << 20) + "\nsecond</pre>")
        #expect(pre.contains("[…]") && pre.contains("second") && pre.utf8.count < 2 << 20)
    }

    /// A table larger than the drain size is written in parts: every row is there.
    @Test func aLongTableIsWrittenInParts() {
        let rows = (0..<60_000).map { "<tr><td>row \($0)</td><td>value \($0)</td></tr>" }
        let text = RendererTests.render("<table><tr><th>name</th><th>value</th></tr>" + rows.joined() + "</table>")
        for index in [0, 29_999, 59_999] { #expect(text.contains("row \(index)  ") && text.contains("value \(index)")) }
        let markdown = RendererTests.render("<table><tr><th>name</th><th>value</th></tr>" + rows.joined() + "</table>", format: .markdown)
        let tableLines = markdown.split(separator: "\n").filter { $0.hasPrefix("|") }
        #expect(tableLines.count == rows.count + 2)
        #expect(!markdown.contains("\n\n|"), "one Markdown table, not several")
    }

    /// The empty comment that keeps libxml2 from holding a long text goes only where text is.
    @Test func textBreaksGoOnlyIntoText() {
        var scanner = MarkupScanner()
        for (html, inText) in [("<p>text", true), ("<p title='a>b", false), ("<!-- x > y", false), ("<!-- x -->", true),
                               ("<!DOCTYPE html", false), ("<!DOCTYPE html>", true), ("a < b", true), ("<a href=\"x\">", true)] {
            scanner = MarkupScanner()
            scanner.scan(Array(html.utf8))
            #expect(scanner.inText == inText, "\(html)")
        }
        // A long comment, a long attribute and a long text all render as they would whole.
        let long = String(repeating: "word ", count: 600_000)
        let page = RendererTests.render("<p>" + long + "</p><!-- " + long + " --><p title='" + long + "'>end</p>")
        #expect(page.split(whereSeparator: { $0 == " " || $0 == "\n" }).count == 600_001)
        #expect(!page.contains("<!--") && page.hasSuffix("end\n"))
    }
}
