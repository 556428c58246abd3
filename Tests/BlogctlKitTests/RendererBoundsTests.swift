import Foundation
import Testing
import ToolboxKit
@testable import BlogctlKit
@testable import BlogctlEngines

/// Issue 29: one sanitising rule for rendered posts, and memory bounded whatever the shape.
@Suite struct RendererBoundsTests {
    static let bidi: [Unicode.Scalar] = ["\u{061C}", "\u{200E}", "\u{200F}", "\u{202A}", "\u{202B}", "\u{202C}", "\u{202D}",
                                         "\u{202E}", "\u{2066}", "\u{2067}", "\u{2068}", "\u{2069}"]

    /// Every bidi control in every kind of block, in text and Markdown, in the title and byline
    /// too: none arrives as itself, each is shown as `<U+XXXX>`.
    @Test func everyBidiControlIsShownInEveryBlockKind() throws {
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
                let page = String(decoding: try PostPage.render(metadata, body: Array(block.utf8), options: RenderOptions(format: format, styled: false)),
                                  as: UTF8.self)
                #expect(!page.unicodeScalars.contains { Terminal.isBidiControl($0) }, "\(format) \(block)")
                for scalar in Self.bidi {
                    #expect(page.contains("<U+\(String(scalar.value, radix: 16, uppercase: true))>"), "\(format) \(block)")
                }
            }
        }
    }

    /// A word appended whole (an image's label) is its sanitised bytes as one piece, as wide
    /// as the terminal draws it: printable ASCII at once, anything else a scalar at a time.
    @Test func aWordIsItsCleanBytesAndTheirWidth() {
        var random = SeededGenerator(seed: 83)
        let pieces = ["a", "Z", " ", "~", "[image: ", "]", "é", "日本", "x\u{301}", "\u{7F}", "\u{1B}[31m", "\u{202E}", "🎉", "\t"]
        for _ in 0..<2_000 {
            let word = (0..<Int.random(in: 0...8, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
            var text = InlineText()
            text.appendWord(word)
            let clean = Terminal.sanitizeField(word)
            #expect(text.singleLine == Array(clean.utf8), "\(word.debugDescription)")
            #expect(text.singleLineWidth == TextWidth.of(clean), "\(word.debugDescription)")
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

    /// A table's own caps crossed four times over, as every cell's text is one buffer of the
    /// table's: one row, never written in parts, stops taking cells at four times the drain
    /// size; a nested table at the drain size, then `[…]`; what is shown stays that small.
    @Test func aHugeRowAndAHugeNestedTableStopAtTheirCaps() {
        let perCell = TableLayout.cellCost + 4
        let rowCap = 4 * TableLayout.drainSize / perCell
        let row = RendererTests.render("<table><tr>" + String(repeating: "<td>cell</td>", count: 4 * rowCap) + "</tr></table><p>after</p>")
        let shown = row.components(separatedBy: "cell").count - 1
        #expect(shown > rowCap / 2 && shown <= rowCap, "\(shown) cells of \(4 * rowCap)")
        #expect(row.hasSuffix("after\n"))
        let nestedCap = TableLayout.drainSize / perCell
        let nested = RendererTests.render("<table><tr><td><table><tr>" + String(repeating: "<td>n</td>", count: 4 * nestedCap)
            + "</tr></table></td><td>next</td></tr></table>")
        #expect(nested.contains("[…]") && nested.contains("next") && nested.utf8.count < 2 * TableLayout.cellLimit)
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
        let long = String(repeating: "word ", count: 200_000)
        let page = RendererTests.render("<p>" + long + "</p><!-- " + long + " --><p title='" + long + "'>end</p>")
        #expect(page.split(whereSeparator: { $0 == " " || $0 == "\n" }).count == 200_001)
        #expect(!page.contains("<!--") && page.hasSuffix("end\n"))
    }

    /// Issue 37: every block kind is cut alike past `paragraphLimit` (1 MiB of its text), with
    /// the visible mark, and what follows the block is shown.
    @Test func everyBlockKindIsCutPastTheLimit() {
        let long = String(repeating: "word ", count: 600_000)
        for (open, close) in [("<p>", "</p>"), ("<ul><li>", "</li></ul>"), ("<blockquote>", "</blockquote>"), ("<h2>", "</h2>"),
                              ("<ol><li><p>", "</p></li></ol>")] {
            let page = RendererTests.render(open + long + close + "<p>after</p>")
            let words = page.split(whereSeparator: { $0 == " " || $0 == "\n" }).filter { $0 == "word" }.count
            // The limit counts the block's text as kept (spaces collapse): about 1 MiB of "word"s.
            #expect(words > RenderBounds.paragraphLimit / 5 && words < RenderBounds.paragraphLimit / 4 + 4096, "\(open): \(words)")
            #expect(page.contains("[…]") && page.hasSuffix("after\n"), "\(open)")
        }
    }
}

/// Issue 46: nesting deeper than `HTMLStream.deepest` flattens, whatever the elements and
/// however the body is cut into pieces: libxml2's stack never goes past it, and no text is lost.
@Suite struct NestingBoundTests {
    @Test func deepNestingOfAnyElementFlattensAndKeepsItsText() throws {
        var random = SeededGenerator(seed: 46)
        let shapes = ["<div><span>x ", "<blockquote>x", "<ul><li>x", "<b><i><u>x", "<x-custom a='<b>'>x", "<table><tr><td>x", "<font>x<br>",
                      // Names libxml2 reads whole (letters, digits, `:-_.`): elements that open, though they start as a void one's.
                      "<br-x>x", "<br0>x", "<img:a>x", "<hr.b>x", "<BR_>x", "<wbr.>x", "<p-x>x"]
        for shape in shapes {
            let repeats = 3_000
            let html = String(repeating: shape, count: repeats)
            for piece in [1 << 16, 7_777, 1 << 20] {
                let report = try HTMLStreamProbe.run(Array(html.utf8), piece: piece)
                // 256, and the few elements libxml2 implies itself (html, body, p).
                #expect(report.deepest <= 256 + 4, "\(shape) \(piece): \(report.deepest)")
                #expect(report.leftOut > 0, "\(shape) \(piece)")
                #expect(report.xs == repeats, "\(shape) \(piece): \(report.xs) of \(repeats) x")
                _ = random.next()
            }
        }
    }

    @Test func ordinaryDocumentsLoseNoTag() throws {
        // Long lists of unclosed items and paragraphs stay shallow: nothing is left out.
        let html = "<ul>" + String(repeating: "<li>x<p>x", count: 20_000) + "</ul>" + String(repeating: "<div>x</div>", count: 5_000)
        let report = try HTMLStreamProbe.run(Array(html.utf8), piece: 1 << 16)
        #expect(report.leftOut == 0)
        #expect(report.xs == 45_000)
    }
}

/// Issue 64: the loaded libxml2's version is read at open; the series the scanner follows is
/// the one installed here (the tests below prove it), and any other is said, once.
@Suite struct LibXML2VersionTests {
    @Test func theInstalledLibraryIsOfTheProvenSeries() throws {
        let version = try LibXML2Version.loaded()
        #expect(LibXML2Version.provenSeries.contains(version), "libxml2 \(version): MarkupScanner follows 2.9")
        #expect(LibXML2Version.unproven(version) == nil)
        #expect(LibXML2Version.unproven(21400)?.contains("libxml2 2.14.0 has not been checked") == true)
        #expect(LibXML2Version.unproven(0)?.contains("of unknown version") == true)
    }
}

/// Issue 46: the stream reads markup as libxml2 reads it, so no start tag nests uncounted and
/// no construct is held whole, whatever quotes, comments and end tags come before.
@Suite struct MarkupReadingTests {
    /// Openings after which libxml2 reads on as markup or text in ways a simpler scanner does
    /// not: stray quotes (libxml2's lookup waits for their match, its parser does not), `--!>`,
    /// `</` and no name, an end tag's quotes, a doctype's literal, raw text and its end.
    static let openings = ["<b a\">", "<b a'>", "<b a=x\">", "<b \"a\"=\"b>", "<b a='x' \"c>", "<b a=x'y>", "<b a= '>'>",
                           "<!-- x --!>", "</ ", "</ <i>", "</i a=\">", "<!DOCTYPE x SYSTEM \"a>b\">", "<? x \">",
                           "<script>a<div>b</script>", "<style></stylex><div></style>", "<script/>", "<b\0>", "<!x '>", "<!-x \"<i>", "<!DOCTYP <i>"]

    @Test func noOpeningLetsNestingPastTheLimit() throws {
        for opening in Self.openings {
            let html = "<p>x" + opening + String(repeating: "<div>x", count: 3_000)
            for piece in [1 << 16, 7_777] {
                let report = try HTMLStreamProbe.run(Array(html.utf8), piece: piece)
                #expect(report.deepest <= 256 + 4, "\(opening.debugDescription) \(piece): \(report.deepest)")
            }
        }
    }

    @Test func aStrayQuoteKeepsItsTagAndItsText() throws {
        // The quote goes as a reference: the value keeps it, the tag ends where libxml2's parser ends it.
        let report = try HTMLStreamProbe.run(Array("<p><a href=/x\"y title'>x</a> x <b c\"d>x</b></p>".utf8), piece: 1 << 16)
        #expect(report.hrefs == ["/x\"y"] && report.xs == 3)
    }

    /// A construct of any size: libxml2 gets its first `markupLimit` bytes and its end, holds no
    /// more than that, and reads on after it as it would have.
    @Test func aHugeConstructIsCutAndClosed() throws {
        let huge = String(repeating: "y", count: 3 << 20)
        for (open, close) in [("<a href=\"", "\">"), ("<a href='", "'>"), ("<a href=", ">"), ("<!--", "-->"), ("<!y", ">"),
                              ("</y", ">"), ("<?y", ">"), ("<script>", "</script>"), ("<style>", "</STYLE>"),
                              ("<!DOCTYPE y SYSTEM \"", "\">"), ("<b ", ">"), ("<b a=\"1\" ", "/>")] {
            let html = "<p>x" + open + huge + close + "x</p><p>x</p>"
            let report = try HTMLStreamProbe.run(Array(html.utf8), piece: 1 << 16)
            #expect(report.held <= HTMLStream.markupLimit + (1 << 17), "\(open): held \(report.held)")
            #expect(report.xs == 3, "\(open): \(report.xs) x")
            // Nothing of it turns into text: `<!y` is text to libxml2 2.9, and a script's text
            // is a script's (the renderer drops it), as far as its limit.
            switch open {
            case "<!y": #expect(report.ys == huge.utf8.count + 1)
            case "<script>", "<style>": #expect(report.ys > 0 && report.ys <= HTMLStream.markupLimit, "\(open): \(report.ys) y")
            default: #expect(report.ys == 0, "\(open): \(report.ys) y")
            }
        }
    }
}
