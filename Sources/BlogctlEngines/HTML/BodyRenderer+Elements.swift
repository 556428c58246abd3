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
            inlineStyle.bold(true)
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
            preformatted.depth += 1
        case .table:
            separateBlock()
            tables.open()
        case .tableRow, .tableCell, .tableHead:
            break  // outside a table: their content flows as text
        case .rule:
            separateBlock()
            let line = Array((markdown ? "---" : String(repeating: "─", count: min(availableWidth, 40))).utf8)
            lines.emit(line)
            requestBlank()
        case .bold, .underline, .code:
            openInlineStyle(tag)
        case .link:
            linkNumbers.open(attributes, markdown: markdown, resolver: options.links, inline: &inline)
        case .image:
            addImage(attributes)
        case .lineBreak:
            if preformatted.depth > 0 { withUnsafeBytes(of: UInt8(0x0A)) { preformatted.append($0.bindMemory(to: UInt8.self), to: &lines) } }
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
            inlineStyle.bold(false)
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
            preformatted.depth -= 1
            if preformatted.depth == 0 { preformatted.finish(to: &lines) }
        case .bold, .underline, .code:
            closeInlineStyle(tag)
        case .link:
            linkNumbers.close(markdown: markdown, inline: &inline)
        default:
            break
        }
        updateStyle()
    }

    func openInlineStyle(_ tag: HTMLTag) {
        inlineStyle.open(tag, in: &inline, marked: markdown && preformatted.depth == 0)
    }

    func closeInlineStyle(_ tag: HTMLTag) {
        inlineStyle.close(tag, in: &inline, marked: markdown && preformatted.depth == 0)
    }

    func addText(_ text: UnsafeBufferPointer<UInt8>) {
        if preformatted.depth > 0 && tables.isEmpty {
            preformatted.append(text, to: &lines)
        } else if tables.isEmpty {
            inline.append(collapsing: text)
            drainParagraphIfLarge()
        } else {
            tables.append(text)
            drainTableIfLarge()
        }
    }

    func addImage(_ attributes: HTMLAttributes) {
        withInline { imageWord.add(attributes, options: options, to: &$0) }
    }

    /// Where inline text goes: the open table cell, or the paragraph.
    func withInline(_ body: (inout InlineText) -> Void) {
        if tables.isEmpty { body(&inline) } else { tables.withCell(body) }
    }

    func updateStyle() {
        let style = inlineStyle.current
        inline.style = style
        if !tables.isEmpty { tables.setStyle(style) }
    }
}
