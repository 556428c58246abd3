import CoreKit

/// Opening and closing elements: what each HTML element starts, ends or changes.
extension BodyRenderer {
    func enter(_ tag: HTMLTag, _ attributes: HTMLAttributes) {
        if !tables.isEmpty && enterInsideTable(tag, attributes) { return }
        switch tag {
        case .paragraph, .division, .definitionTerm:
            separateBlock()
        case .quotation:
            withInline { $0.prefixNext("“") }
        case .heading(let level):
            separateBlock()
            headingLevel = level
            if markdown { inline.prefixNext(String(repeating: "#", count: level) + " ") }
            boldDepth += 1
        case .unorderedList, .orderedList:
            openList(ordered: tag == .orderedList, start: attributes.value("start"))
        case .listItem:
            openListItem()
        case .blockquote:
            separateBlock()
            openIndent(markdown ? "> " : "    ")
        case .definitionDescription:
            flushParagraph()
            openIndent("    ")
        case .preformatted:
            separateBlock()
            preDepth += 1
        case .table:
            separateBlock()
            tables.append(TableLayout())
        case .tableRow, .tableCell, .tableHead:
            break  // outside a table: their content flows as text
        case .rule:
            separateBlock()
            let line = Array((markdown ? "---" : String(repeating: "─", count: min(availableWidth, 40))).utf8)
            emitLine(line, width: markdown ? 3 : min(availableWidth, 40))
            requestBlank()
        case .bold, .underline, .code:
            openInlineStyle(tag)
        case .link:
            openLink(attributes)
        case .image:
            addImage(attributes)
        case .lineBreak:
            if preDepth > 0 { withUnsafeBytes(of: UInt8(0x0A)) { appendPreformatted($0.bindMemory(to: UInt8.self)) } }
            else {
                if markdown { inline.appendGlued("\\") }
                inline.lineBreak()
            }
        case .dropped, .inline, .documentBase:
            break
        }
        updateStyle()
    }

    func exit(_ tag: HTMLTag) {
        if !tables.isEmpty, exitInsideTable(tag) { return }
        switch tag {
        case .paragraph, .division:
            separateBlock()
        case .definitionTerm:
            flushParagraph()
        case .quotation:
            withInline { if !$0.cancelPrefix() { $0.appendGlued("”") } }
        case .heading:
            boldDepth -= 1
            updateStyle()
            separateBlock()
            headingLevel = 0
        case .unorderedList, .orderedList:
            closeList()
        case .listItem:
            closeListItem()
        case .blockquote:
            separateBlock()
            closeIndent()
        case .definitionDescription:
            flushParagraph()
            closeIndent()
        case .preformatted:
            preDepth -= 1
            if preDepth == 0 { emitPreformatted() }
        case .bold, .underline, .code:
            closeInlineStyle(tag)
        case .link:
            closeLink()
        default:
            break
        }
        updateStyle()
    }

    /// Bold, underline and code: a depth for the terminal's styles, markers in Markdown (an
    /// empty run gets none).
    func openInlineStyle(_ tag: HTMLTag) {
        let marked = markdown && preDepth == 0
        switch tag {
        case .bold:
            if marked { inline.prefixNext("**") }
            boldDepth += 1
        case .underline:
            if marked { inline.prefixNext("*") }
            underlineDepth += 1
        default:  // code
            if marked {
                inline.prefixNext("`")
                inline.escapesMarkdown = false
            }
        }
    }

    func closeInlineStyle(_ tag: HTMLTag) {
        let marked = markdown && preDepth == 0
        switch tag {
        case .bold:
            boldDepth -= 1
            if marked && !inline.cancelPrefix() { inline.appendGlued("**") }
        case .underline:
            underlineDepth -= 1
            if marked && !inline.cancelPrefix() { inline.appendGlued("*") }
        default:  // code
            if marked {
                inline.escapesMarkdown = true
                if !inline.cancelPrefix() { inline.appendGlued("`") }
            }
        }
    }

    func addText(_ text: UnsafeBufferPointer<UInt8>) {
        if preDepth > 0 && tables.isEmpty {
            appendPreformatted(text)
        } else if tables.isEmpty {
            inline.append(collapsing: text)
            drainParagraphIfLarge()
        } else {
            tables[tables.count - 1].withCell { $0.append(collapsing: text) }
            drainTableIfLarge()
        }
    }

    func addImage(_ attributes: HTMLAttributes) {
        if !markdown, addPrintableImage(attributes) { return }
        let alt = attributes.value("alt")?.trimmingSpaces() ?? ""
        if markdown {
            let source = attributes.value("src").map { Terminal.sanitizeField(options.links.resolve($0)) } ?? ""
            let label = String(alt.unicodeScalars.filter { $0 != "[" && $0 != "]" }.map(Character.init))
            withInline { $0.appendWord("![\(label)](\(markdownURL(source)))") }
        } else {
            withInline { $0.appendWord(alt.isEmpty ? "[image]" : "[image: \(alt)]") }
        }
    }

    /// `[image]` or `[image: ALT]` put together from libxml2's bytes, with no String made, when
    /// the alt text is printable ASCII once its blanks are trimmed (what `sanitizeField` and
    /// `trimmingSpaces` leave as it is); false for any other, which takes the String path.
    private func addPrintableImage(_ attributes: HTMLAttributes) -> Bool {
        var alt = attributes.bytes("alt") ?? UnsafeBufferPointer(start: nil, count: 0)
        // Only what `sanitizeField` leaves blank (a space) or makes one (a tab, a line feed):
        // it shows other controls, which `trimmingSpaces` then keeps.
        func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A }
        while let first = alt.first, isBlank(first) { alt = UnsafeBufferPointer(rebasing: alt.dropFirst()) }
        while let last = alt.last, isBlank(last) { alt = UnsafeBufferPointer(rebasing: alt.dropLast()) }
        guard alt.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return false }
        if alt.isEmpty {
            let word: StaticString = "[image]"
            withInline { $0.appendWord(printable: UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)) }
            return true
        }
        let before: StaticString = "[image: "
        imageWord.removeAll(keepingCapacity: true)
        imageWord.append(contentsOf: UnsafeBufferPointer(start: before.utf8Start, count: before.utf8CodeUnitCount))
        imageWord.append(contentsOf: alt)
        imageWord.append(UInt8(ascii: "]"))
        imageWord.withUnsafeBufferPointer { word in withInline { $0.appendWord(printable: word) } }
        return true
    }

    /// Where inline text goes: the open table cell, or the paragraph.
    func withInline(_ body: (inout InlineText) -> Void) {
        if tables.isEmpty { return body(&inline) }
        tables[tables.count - 1].withCell { cell in
            let before = cell.work
            body(&cell)
            cellWork += cell.work - before
        }
    }

    func updateStyle() {
        var style: TextStyle = []
        if boldDepth > 0 { style.insert(.bold) }
        if underlineDepth > 0 { style.insert(.underline) }
        if !options.styled { style = [] }
        inline.style = style
        if !tables.isEmpty { tables[tables.count - 1].withCell { $0.style = style } }
    }
}
