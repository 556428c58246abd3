import CoreKit

/// Lays out an HTML body as text for a terminal (or Markdown): paragraphs reflowed to the
/// width, headings set apart, nested lists, indented blockquotes, `pre` verbatim, tables in
/// columns, images as `[image: ALT]`, links as numbered references listed at the end.
/// Works on the SAX events of libxml2's HTML push parser (`HTMLStream`), in one pass, holding
/// no tree and using no recursion; output is bytes, sanitised. The elements, lists, tables,
/// links and `pre` blocks are handled in the `BodyRenderer+…` files.
package final class BodyRenderer {
    let options: RenderOptions
    var markdown: Bool { options.format == .markdown }
    package private(set) var output: [UInt8] = []

    /// Something that prefixes the lines inside it: a list item's marker then its indent, a
    /// blockquote's indent. `used` once its first line is out.
    package struct Container {
        var first: [UInt8]
        var rest: [UInt8]
        var width: Int
        var used = false
    }

    package struct ListState {
        var ordered: Bool
        var next: Int
    }

    /// Deeper nesting still renders, without further indentation, so the text keeps a width.
    static let deepestIndent = 12

    var containers: [Container] = []
    /// Whether a line is out (the output may have gone to the sink): no blank line before the first.
    var wroteLine = false
    var inline = InlineText()
    /// An image's `[image: ALT]`, put together here (`addPrintableImage`), reused.
    var imageWord: [UInt8] = []
    /// The work of the layout (for tests): the paragraph's (`InlineText.work`), the table
    /// cells' (`cellWork`), the bytes of `pre` searched for line breaks (`preSearched`) and
    /// the bytes of the lines written (`emitted`); linear in the input whatever its shape.
    var work: Int { inline.work + cellWork + preSearched + emitted }
    var cellWork = 0
    var preSearched = 0
    var emitted = 0
    var pendingBlank = false
    var boldDepth = 0
    var underlineDepth = 0
    var preDepth = 0
    var preText: [UInt8] = []
    /// Where `preText`'s last line break is: found in each piece as it is appended, so that a
    /// long line of many pieces is never searched again for one.
    var preLastNewline: Int?
    /// Whether the open `pre` block's first lines are out, under which fence (Markdown).
    var preStarted = false
    var preFence: [UInt8] = []
    /// Whether the open `pre` line was cut: the rest of it is dropped.
    var preLineCut = false
    var lists: [ListState] = []
    var listItemDepth = 0
    var tables: [TableLayout] = []
    var openLinks: [String?] = []
    var headingLevel = 0
    /// The link targets numbered so far, and what each `href` resolved to.
    var linkNumbers = LinkNumbers()
    /// The numbered targets, in order (the list after the body).
    package var links: [String] { linkNumbers.targets }

    /// Where finished output goes as it grows, so a long page is never held whole; nil keeps it
    /// all in `output`.
    let sink: (([UInt8]) -> Void)?

    package init(options: RenderOptions, sink: (([UInt8]) -> Void)? = nil) {
        self.options = options
        self.sink = sink
        inline.escapesMarkdown = options.format == .markdown
        inline.byteLimit = Self.paragraphLimit
    }

    // MARK: - Input

    /// Renders HTML that `feed` hands over in pieces.
    /// `also`: a second renderer (the search index's) that gets every event too, so one parse
    /// lays the body out twice.
    package func renderHTML(also: BodyRenderer? = nil, _ feed: ((UnsafeBufferPointer<UInt8>) -> Void) -> Void) throws(ToolError) {
        // Borrowed for each event, never retained and released (as the stream borrows itself):
        // the stream lives only inside this call, which holds both renderers. An unowned(unsafe)
        // capture still retained the renderer for every call.
        let me = Unmanaged.passUnretained(self)
        let stream = if let also {
            try HTMLStream { [also = Unmanaged.passUnretained(also)] event in
                me._withUnsafeGuaranteedRef { $0.handle(event) }
                also._withUnsafeGuaranteedRef { $0.handle(event) }
            }
        } else {
            try HTMLStream { event in me._withUnsafeGuaranteedRef { $0.handle(event) } }
        }
        defer { withExtendedLifetime((self, also)) {} }
        feed { stream.feed($0) }
        stream.finish()
        flushParagraph()
        also?.flushParagraph()
    }

    /// Elements inside a dropped one (script, style, head) and their text are skipped.
    var droppedDepth = 0

    func handle(_ event: HTMLEvent) {
        if droppedDepth > 0 {
            switch event {
            case .enter: droppedDepth += 1
            case .exit: droppedDepth -= 1
            case .text: break
            }
            return
        }
        switch event {
        case .enter(let tag, let attributes):
            if tag == .dropped { droppedDepth = 1 } else { enter(tag, attributes) }
        case .exit(let tag): exit(tag)
        case .text(let text): addText(text)
        }
    }

    /// Renders text without markup: paragraphs are separated by blank lines.
    package func renderPlainText(_ text: [UInt8]) {
        var lineStart = 0
        var blankRun = false
        for index in 0...text.count {
            guard index == text.count || text[index] == 0x0A else { continue }
            let line = text[lineStart..<index]
            let isBlank = line.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
            if isBlank {
                if !blankRun { flushParagraph(); pendingBlank = true }
                blankRun = true
            } else {
                blankRun = false
                inline.append(collapsing: Array(line))
                inline.append(collapsing: [0x20])
            }
            lineStart = index + 1
        }
        flushParagraph()
    }

    /// A heading made by the program (the post's title), styled as an `h1`.
    package func heading(_ text: String, level: Int) {
        flushParagraph()
        requestBlank()
        headingLevel = level
        if markdown { inline.prefixNext(String(repeating: "#", count: level) + " ") }
        boldDepth += 1
        updateStyle()
        inline.append(collapsing: Array(text.utf8))
        boldDepth -= 1
        updateStyle()
        flushParagraph()
        headingLevel = 0
        requestBlank()
    }

    /// A paragraph made by the program (the byline).
    package func paragraph(_ text: String) {
        flushParagraph()
        requestBlank()
        inline.append(collapsing: Array(text.utf8))
        flushParagraph()
        requestBlank()
    }

    // MARK: - Elements

    // MARK: - Output

    /// A block starts or ends: the paragraph so far is laid out, and a blank line comes
    /// before whatever follows.
    func separateBlock() {
        flushParagraph()
        requestBlank()
    }

    func requestBlank() { pendingBlank = true }

    /// Containers nested deeper than `deepestIndent`: counted, not kept, so that each line
    /// costs the same however deep the nesting goes.
    var containersBeyondIndent = 0

    var availableWidth: Int {
        if markdown { return Int.max / 2 }
        let indent = containers.reduce(0) { $0 + $1.width }
        return max(options.width - indent, Self.narrowest)
    }

    /// The fewest columns a line's text gets, however deep its indent.
    static let narrowest = 20

    // MARK: - Bounds

    /// A paragraph holding more than this is laid out as far as its lines are final.
    static let paragraphDrainBytes = 64 << 10
    /// The most text one block (paragraph, list item, quote, heading, table cell) shows: 1 MiB;
    /// past it, the rest of the block is dropped and `[…]` marks the cut (blogctl(1), read).
    static let paragraphLimit = 1 << 20
    /// A Markdown paragraph drained early is soft-wrapped at about this many columns.
    static let markdownDrainWidth = 1000
    /// The widest line of a paragraph laid out so far (a heading's underline spans it).
    var widestDrained = 0

    /// Lays out the lines of the open paragraph that can no longer change, once it is large:
    /// memory stays bounded whatever the length of one paragraph.
    func drainParagraphIfLarge() {
        guard inline.bytes.count > Self.paragraphDrainBytes else { return }
        inline.drainLines(width: markdown ? Self.markdownDrainWidth : availableWidth, styled: options.styled,
                          markdownBreaks: markdown) { line, width in
            emitLine(line, width: width)
            widestDrained = max(widestDrained, width)
        }
    }

    func flushParagraph() {
        _ = inline.cancelPrefix()
        defer { widestDrained = 0 }
        guard !inline.isEmpty else { return }
        var widest = widestDrained
        inline.forEachLine(width: availableWidth, styled: options.styled) { line, width in
            emitLine(line, width: width)
            widest = max(widest, width)
        }
        if headingLevel > 0 && headingLevel <= 2 && !markdown && !options.styled {
            let width = widest
            emitLine([UInt8](repeating: UInt8(ascii: headingLevel == 1 ? "=" : "-"), count: width), width: width)
        }
        inline.removeAll()
    }

    /// One line with the containers' prefixes, after the blank line a block asked for.
    func emitLine(_ bytes: [UInt8], width: Int) {
        if pendingBlank {
            if wroteLine { emitBlankLine() }
            pendingBlank = false
        }
        wroteLine = true
        for index in containers.indices {
            output += containers[index].used ? containers[index].rest : containers[index].first
            containers[index].used = true
        }
        output += bytes
        output.append(0x0A)
        emitted += bytes.count + 1
        if let sink, output.count >= 1 << 16 {
            sink(output)
            output.removeAll(keepingCapacity: true)
        }
    }

    /// Hands what is left to the sink.
    package func finish() {
        flushParagraph()
        if let sink, !output.isEmpty {
            sink(output)
            output.removeAll()
        }
    }

    /// An empty line carrying only the prefixes of containers already started (`>` in Markdown).
    func emitBlankLine() {
        var line: [UInt8] = []
        for container in containers where container.used { line += container.rest }
        while line.last == 0x20 { line.removeLast() }
        output += line
        output.append(0x0A)
        pendingBlank = false
    }
}
