import CoreKit

/// Lays out an HTML body as text for a terminal (or Markdown): paragraphs reflowed to the
/// width, headings set apart, nested lists, indented blockquotes, `pre` verbatim, tables in
/// columns, images as `[image: ALT]`, links as numbered references listed at the end.
/// Works on the SAX events of libxml2's HTML push parser (`HTMLStream`), in one pass, holding
/// no tree and using no recursion; output is bytes, sanitised. This type decides what each
/// element does (`BodyRenderer+Elements` and the files beside it); what it holds meanwhile is
/// kept by a type for each job: the open paragraph (`InlineText`), tables (`OpenTables`),
/// `pre` (`PreformattedBlock`), lists (`ListNesting`), styles (`InlineStyle`), links
/// (`LinkNumbers`), and the lines written with their indents (`PageLines`).
package final class BodyRenderer {
    let options: RenderOptions
    var markdown: Bool { options.format == .markdown }
    /// The lines laid out so far, with their containers' prefixes.
    var lines: PageLines
    /// The page so far, when there is no sink.
    package var output: [UInt8] { lines.output }

    var inline = InlineText()
    var imageWord = ImageWord()
    /// The work of the layout (for tests): the paragraph's (`InlineText.work`), the table
    /// cells' (`cellWork`), the bytes of `pre` searched for line breaks and the bytes of the
    /// lines written; linear in the input whatever its shape.
    var work: Int { inline.work + tables.cellWork + preformatted.searched + lines.emitted }
    var inlineStyle: InlineStyle
    var preformatted: PreformattedBlock
    var lists = ListNesting()
    var tables = OpenTables()
    var headingLevel = 0
    /// The link targets numbered so far, and what each `href` resolved to.
    var linkNumbers = LinkNumbers()
    /// The numbered targets, in order (the list after the body).
    package var links: [String] { linkNumbers.targets }

    /// `sink`: where finished output goes as it grows, so a long page is never held whole;
    /// nil keeps it all in `output`.
    package init(options: RenderOptions, sink: (([UInt8]) -> Void)? = nil) {
        self.options = options
        lines = PageLines(sink: sink)
        preformatted = PreformattedBlock(markdown: options.format == .markdown)
        inlineStyle = InlineStyle(styled: options.styled)
        inline.escapesMarkdown = options.format == .markdown
        inline.byteLimit = RenderBounds.paragraphLimit
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
    var dropped = DroppedElements()

    func handle(_ event: HTMLEvent) {
        guard dropped.passes(event) else { return }
        switch event {
        case .enter(let tag, let attributes): enter(tag, attributes)
        case .exit(let tag): exit(tag)
        case .text(let text): addText(text)
        }
    }

    /// A heading made by the program (the post's title), laid out as the element would be.
    package func heading(_ text: String, level: Int) {
        block(.heading(level), text)
    }

    /// A paragraph made by the program (the byline).
    package func paragraph(_ text: String) {
        block(.paragraph, text)
    }

    private func block(_ tag: HTMLTag, _ text: String) {
        enter(tag, HTMLAttributes(pairs: nil))
        Array(text.utf8).withUnsafeBufferPointer { addText($0) }
        exit(tag)
    }

    /// Renders text without markup: each run of lines between blank ones is a paragraph.
    package func renderPlainText(_ text: [UInt8]) {
        var paragraphs = PlainTextParagraphs(text)
        while let paragraph = paragraphs.next() {
            separateBlock()
            for line in paragraph { inline.append(collapsing: Array(line)); inline.append(collapsing: [0x20]) }
        }
        flushParagraph()
    }

    /// A block starts or ends: the paragraph so far is laid out, and a blank line comes
    /// before whatever follows.
    func separateBlock() {
        flushParagraph()
        requestBlank()
    }

    func requestBlank() { lines.requestBlank() }

    var availableWidth: Int {
        if markdown { return Int.max / 2 }
        return max(options.width - lines.indent, PageLines.narrowest)
    }

    /// The widest line of a paragraph laid out so far (a heading's underline spans it).
    var widestDrained = 0

    /// Lays out the lines of the open paragraph that can no longer change, once it is large:
    /// memory stays bounded whatever the length of one paragraph.
    func drainParagraphIfLarge() {
        guard inline.bytes.count > RenderBounds.paragraphDrainBytes else { return }
        inline.drainLines(width: markdown ? RenderBounds.markdownDrainWidth : availableWidth, styled: options.styled,
                          markdownBreaks: markdown) { line, width in
            lines.emit(line)
            widestDrained = max(widestDrained, width)
        }
    }

    func flushParagraph() {
        _ = inline.cancelPrefix()
        defer { widestDrained = 0 }
        guard !inline.isEmpty else { return }
        var widest = widestDrained
        inline.forEachLine(width: availableWidth, styled: options.styled) { line, width in
            lines.emit(line)
            widest = max(widest, width)
        }
        if headingLevel > 0 && headingLevel <= 2 && !markdown && !options.styled {
            let width = widest
            lines.emit([UInt8](repeating: UInt8(ascii: headingLevel == 1 ? "=" : "-"), count: width))
        }
        inline.removeAll()
    }

    /// Hands what is left to the sink.
    package func finish() {
        flushParagraph()
        lines.finish()
    }
}
