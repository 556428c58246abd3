import ToolboxKit

/// Lays out an HTML body as text for a terminal (or Markdown): paragraphs reflowed to the
/// width, headings set apart, nested lists, indented blockquotes, `pre` verbatim, tables in
/// columns, images as `[image: ALT]`, links as numbered references listed at the end.
/// Works on libxml2's tree in one pass without recursion; output is bytes, sanitised.
final class BodyRenderer {
    let options: RenderOptions
    private var markdown: Bool { options.format == .markdown }
    private(set) var output: [UInt8] = []

    /// Something that prefixes the lines inside it: a list item's marker then its indent, a
    /// blockquote's indent. `used` once its first line is out.
    private struct Container {
        var first: [UInt8]
        var rest: [UInt8]
        var width: Int
        var used = false
    }

    private struct ListState {
        var ordered: Bool
        var next: Int
    }

    /// Deeper nesting still renders, without further indentation, so the text keeps a width.
    private static let deepestIndent = 12

    private var containers: [Container] = []
    /// Whether a line is out (the output may have gone to the sink): no blank line before the first.
    private var wroteLine = false
    private var inline = InlineText()
    private var pendingBlank = false
    private var boldDepth = 0
    private var underlineDepth = 0
    private var preDepth = 0
    private var preText: [UInt8] = []
    private var lists: [ListState] = []
    private var listItemDepth = 0
    private var tables: [TableLayout] = []
    private var openLinks: [String?] = []
    private var headingLevel = 0
    private(set) var links: [String] = []
    private var linkNumbers: [String: Int] = [:]

    /// Where finished output goes as it grows, so a long page is never held whole; nil keeps it
    /// all in `output`.
    private let sink: (([UInt8]) -> Void)?

    init(options: RenderOptions, sink: (([UInt8]) -> Void)? = nil) {
        self.options = options
        self.sink = sink
        inline.escapesMarkdown = options.format == .markdown
    }

    // MARK: - Input

    /// Renders HTML that `feed` hands over in pieces.
    func renderHTML(_ feed: ((UnsafeBufferPointer<UInt8>) -> Void) -> Void) {
        // unowned(unsafe): the stream lives only inside this call, and no reference counting per event.
        let stream = HTMLStream { [unowned(unsafe) self] event in self.handle(event) }
        feed { stream.feed($0) }
        stream.finish()
        flushParagraph()
    }

    /// Elements inside a dropped one (script, style, head) and their text are skipped.
    private var droppedDepth = 0

    private func handle(_ event: HTMLEvent) {
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
    func renderPlainText(_ text: [UInt8]) {
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
    func heading(_ text: String, level: Int) {
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
    func paragraph(_ text: String) {
        flushParagraph()
        requestBlank()
        inline.append(collapsing: Array(text.utf8))
        flushParagraph()
        requestBlank()
    }

    /// The numbered link targets, after the body (text only; Markdown links are inline).
    func appendLinkList() {
        flushParagraph()
        guard !markdown, !links.isEmpty else { return }
        requestBlank()
        emitLine(Array("Links:".utf8), width: 6)
        let numberWidth = String(links.count).count + 2
        for (index, link) in links.enumerated() {
            let label = "[\(index + 1)]"
            emitLine(Array((label + String(repeating: " ", count: numberWidth - label.count + 1) + link).utf8), width: 0)
        }
    }

    // MARK: - Elements

    private func enter(_ tag: HTMLTag, _ attributes: HTMLAttributes) {
        if !tables.isEmpty && enterInsideTable(tag, attributes) { return }
        switch tag {
        case .paragraph, .division, .definitionTerm:
            startBlock()
        case .quotation:
            withInline { $0.prefixNext("“") }
        case .heading(let level):
            startBlock()
            headingLevel = level
            if markdown { inline.prefixNext(String(repeating: "#", count: level) + " ") }
            boldDepth += 1
        case .unorderedList, .orderedList:
            flushParagraph()
            if listItemDepth == 0 { requestBlank() }
            let ordered = tag == .orderedList
            // Browsers keep list numbers within 32 bits; so do we, and a huge `start` cannot overflow.
            let start = attributes.value("start").flatMap { Int($0.trimmingSpaces()) }.map { min(max($0, -2_147_483_648), 2_147_483_647) } ?? 1
            lists.append(ListState(ordered: ordered, next: start))
        case .listItem:
            flushParagraph()
            listItemDepth += 1
            pushContainer(first: listMarker(), rest: [])
        case .blockquote:
            startBlock()
            pushContainer(first: Array((markdown ? "> " : "    ").utf8), rest: Array((markdown ? "> " : "    ").utf8))
        case .definitionDescription:
            flushParagraph()
            pushContainer(first: Array("    ".utf8), rest: Array("    ".utf8))
        case .preformatted:
            startBlock()
            preDepth += 1
        case .table:
            startBlock()
            tables.append(TableLayout())
        case .tableRow, .tableCell, .tableHead:
            break  // outside a table: their content flows as text
        case .rule:
            startBlock()
            let line = Array((markdown ? "---" : String(repeating: "─", count: min(availableWidth, 40))).utf8)
            emitLine(line, width: markdown ? 3 : min(availableWidth, 40))
            requestBlank()
        case .bold:
            if markdown && preDepth == 0 { inline.prefixNext("**") }
            boldDepth += 1
        case .underline:
            if markdown && preDepth == 0 { inline.prefixNext("*") }
            underlineDepth += 1
        case .code:
            if markdown && preDepth == 0 {
                inline.prefixNext("`")
                inline.escapesMarkdown = false
            }
        case .link:
            let target = attributes.value("href").map(options.links.resolve)
            openLinks.append(target)
            if markdown && target != nil { inline.prefixNext("[") }
        case .image:
            addImage(attributes)
        case .lineBreak:
            if preDepth > 0 { preText.append(0x0A) }
            else {
                if markdown { inline.appendGlued("\\") }
                inline.lineBreak()
            }
        case .dropped, .inline:
            break
        }
        updateStyle()
    }

    private func exit(_ tag: HTMLTag) {
        if !tables.isEmpty, exitInsideTable(tag) { return }
        switch tag {
        case .paragraph, .division:
            endBlock()
        case .definitionTerm:
            flushParagraph()
        case .quotation:
            withInline { if !$0.cancelPrefix() { $0.appendGlued("”") } }
        case .heading:
            boldDepth -= 1
            updateStyle()
            endBlock()
            headingLevel = 0
        case .unorderedList, .orderedList:
            flushParagraph()
            if !lists.isEmpty { lists.removeLast() }
            if listItemDepth == 0 { requestBlank() }
        case .listItem:
            flushParagraph()
            listItemDepth -= 1
            popContainer()
        case .blockquote:
            endBlock()
            popContainer()
            requestBlank()
        case .definitionDescription:
            flushParagraph()
            popContainer()
            requestBlank()
        case .preformatted:
            preDepth -= 1
            if preDepth == 0 { emitPreformatted() }
        case .bold:
            boldDepth -= 1
            if markdown && preDepth == 0 && !inline.cancelPrefix() { inline.appendGlued("**") }
        case .underline:
            underlineDepth -= 1
            if markdown && preDepth == 0 && !inline.cancelPrefix() { inline.appendGlued("*") }
        case .code:
            if markdown && preDepth == 0 {
                inline.escapesMarkdown = true
                if !inline.cancelPrefix() { inline.appendGlued("`") }
            }
        case .link:
            let target = openLinks.popLast() ?? nil
            if let target {
                if markdown {
                    if !inline.cancelPrefix() { inline.appendGlued("](\(markdownURL(target)))") }
                } else {
                    inline.appendGlued("[\(linkNumber(target))]")
                }
            }
        default:
            break
        }
        updateStyle()
    }

    /// Inside a table, blocks flow into the current cell; returns false for what is handled as usual.
    private func enterInsideTable(_ tag: HTMLTag, _ attributes: HTMLAttributes) -> Bool {
        switch tag {
        case .table:
            tables.append(TableLayout())
            return true
        case .tableRow:
            tables[tables.count - 1].startRow()
            return true
        case .tableCell(let header):
            tables[tables.count - 1].startCell(header: header, escapesMarkdown: markdown)
            if header { boldDepth += 1; updateStyle() }
            return true
        case .tableHead:
            tables[tables.count - 1].inHead = true
            return true
        case .image:
            addImage(attributes)
            return true
        case _ where tag.isBlock || tag == .lineBreak:
            separateInCell()
            return true
        default:
            return false
        }
    }

    /// A line break or a block inside a cell: the cell is one run of text, so a space.
    private func separateInCell() {
        withInline { $0.append(collapsing: [0x20]) }
    }

    /// Returns true when the end tag was handled as part of a table.
    private func exitInsideTable(_ tag: HTMLTag) -> Bool {
        switch tag {
        case .table:
            let table = tables.removeLast()
            if tables.isEmpty {
                emitTable(table)
            } else {
                let text = table.flattened
                withInline { $0.append(collapsing: text) }
            }
            return true
        case .tableCell(let header):
            if header { boldDepth -= 1; updateStyle() }
            tables[tables.count - 1].endCell()
            return true
        case .tableHead:
            tables[tables.count - 1].inHead = false
            return true
        case .tableRow:
            return true
        case _ where tag.isBlock:
            separateInCell()
            return true
        default:
            return false
        }
    }

    private func addText(_ text: UnsafeBufferPointer<UInt8>) {
        if preDepth > 0 && tables.isEmpty {
            preText.append(contentsOf: text)
        } else if tables.isEmpty {
            inline.append(collapsing: text)
        } else {
            tables[tables.count - 1].withCell { $0.append(collapsing: text) }
        }
    }

    private func addImage(_ attributes: HTMLAttributes) {
        let alt = attributes.value("alt")?.trimmingSpaces() ?? ""
        if markdown {
            let source = attributes.value("src").map(options.links.resolve) ?? ""
            let label = String(alt.unicodeScalars.filter { $0 != "[" && $0 != "]" }.map(Character.init))
            withInline { $0.appendWord("![\(label)](\(markdownURL(source)))") }
        } else {
            withInline { $0.appendWord(alt.isEmpty ? "[image]" : "[image: \(alt)]") }
        }
    }

    /// Where inline text goes: the open table cell, or the paragraph.
    private func withInline(_ body: (inout InlineText) -> Void) {
        if tables.isEmpty { body(&inline) } else { tables[tables.count - 1].withCell(body) }
    }

    private func updateStyle() {
        var style: TextStyle = []
        if boldDepth > 0 { style.insert(.bold) }
        if underlineDepth > 0 { style.insert(.underline) }
        if !options.styled { style = [] }
        inline.style = style
        if !tables.isEmpty { tables[tables.count - 1].withCell { $0.style = style } }
    }

    private func linkNumber(_ target: String) -> Int {
        if let number = linkNumbers[target] { return number }
        links.append(target)
        linkNumbers[target] = links.count
        return links.count
    }

    private func markdownURL(_ url: String) -> String {
        url.contains(" ") || url.contains(")") ? "<" + url + ">" : url
    }

    private func listMarker() -> [UInt8] {
        guard !lists.isEmpty else { return Array((markdown ? "- " : "• ").utf8) }
        let depth = lists.count - 1
        let index = lists.count - 1
        if lists[index].ordered {
            let number = lists[index].next
            lists[index].next = number < 2_147_483_647 ? number + 1 : number
            // The parser streams, so the list's length is unknown: each item aligns its own lines.
            return Array("\(number). ".utf8)
        }
        if markdown { return Array("- ".utf8) }
        return Array((["•", "◦", "▪"][depth % 3] + " ").utf8)
    }

    // MARK: - Output

    private func startBlock() {
        flushParagraph()
        requestBlank()
    }

    private func endBlock() {
        flushParagraph()
        requestBlank()
    }

    private func requestBlank() { pendingBlank = true }

    /// Containers nested deeper than `deepestIndent`: counted, not kept, so that each line
    /// costs the same however deep the nesting goes.
    private var containersBeyondIndent = 0

    private func pushContainer(first: [UInt8], rest: [UInt8]) {
        guard containers.count < Self.deepestIndent else {
            containersBeyondIndent += 1
            return
        }
        let width = TextWidth.of(String(decoding: first, as: UTF8.self))
        let restPrefix = rest.isEmpty ? [UInt8](repeating: 0x20, count: width) : rest
        containers.append(Container(first: first, rest: restPrefix, width: width))
    }

    private func popContainer() {
        if containersBeyondIndent > 0 { containersBeyondIndent -= 1 }
        else if !containers.isEmpty { containers.removeLast() }
    }

    private var availableWidth: Int {
        if markdown { return Int.max / 2 }
        let indent = containers.reduce(0) { $0 + $1.width }
        return max(options.width - indent, 20)
    }

    private func flushParagraph() {
        _ = inline.cancelPrefix()
        guard !inline.isEmpty else { return }
        var widest = 0
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

    private func emitPreformatted() {
        var text = preText
        preText.removeAll()
        if text.first == 0x0A { text.removeFirst() }
        while text.last == 0x0A || text.last == 0x20 || text.last == 0x0D { text.removeLast() }
        // A fence longer than any backtick run inside, found in one pass.
        let fence = [UInt8](repeating: UInt8(ascii: "`"), count: max(3, Self.longestRun(of: UInt8(ascii: "`"), in: text) + 1))
        if markdown { emitLine(fence, width: fence.count) }
        for line in text.split(separator: 0x0A, omittingEmptySubsequences: false) {
            let clean = Self.verbatim(line)
            if markdown { emitLine(clean, width: 0) }
            else if clean.isEmpty { emitBlankLine() }
            else { emitLine(Array("    ".utf8) + clean, width: 0) }
        }
        if markdown { emitLine(fence, width: fence.count) }
        requestBlank()
    }

    /// The length of the longest run of `byte` in `bytes`.
    static func longestRun(of byte: UInt8, in bytes: [UInt8]) -> Int {
        var longest = 0
        var current = 0
        for item in bytes {
            current = item == byte ? current + 1 : 0
            longest = max(longest, current)
        }
        return longest
    }

    /// A `pre` line as it is, tabs expanded to 8-column stops, control characters dropped.
    static func verbatim(_ line: ArraySlice<UInt8>) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(line.count)
        var column = 0
        var index = line.startIndex
        while index < line.endIndex {
            let byte = line[index]
            if byte == 0x09 {
                let spaces = 8 - column % 8
                result += [UInt8](repeating: 0x20, count: spaces)
                column += spaces
                index += 1
            } else if byte < 0x20 || byte == 0x7F {
                index += 1
            } else if byte < 0x80 {
                result.append(byte)
                column += 1
                index += 1
            } else {
                let (scalar, length) = UTF8Scalar.decode(line, at: index)
                if let scalar, !(0x80...0x9F).contains(scalar.value) {
                    result += line[index..<(index + length)]
                    column += TextWidth.width(scalar)
                }
                index += length
            }
        }
        while result.last == 0x20 { result.removeLast() }
        return result
    }

    private func emitTable(_ table: TableLayout) {
        flushParagraph()
        requestBlank()
        if markdown {
            for line in table.markdownLines() { emitLine(line, width: 0) }
        } else {
            for line in table.textLines(width: availableWidth, styled: options.styled) { emitLine(line.bytes, width: line.width) }
        }
        requestBlank()
    }

    /// One line with the containers' prefixes, after the blank line a block asked for.
    private func emitLine(_ bytes: [UInt8], width: Int) {
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
        if let sink, output.count >= 1 << 16 {
            sink(output)
            output.removeAll(keepingCapacity: true)
        }
    }

    /// Hands what is left to the sink.
    func finish() {
        flushParagraph()
        if let sink, !output.isEmpty {
            sink(output)
            output.removeAll()
        }
    }

    /// An empty line carrying only the prefixes of containers already started (`>` in Markdown).
    private func emitBlankLine() {
        var line: [UInt8] = []
        for container in containers where container.used { line += container.rest }
        while line.last == 0x20 { line.removeLast() }
        output += line
        output.append(0x0A)
        pendingBlank = false
    }
}
