import ToolboxKit

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
            separateBlock()
            pushContainer(first: Array((markdown ? "> " : "    ").utf8), rest: Array((markdown ? "> " : "    ").utf8))
        case .definitionDescription:
            flushParagraph()
            pushContainer(first: Array("    ".utf8), rest: Array("    ".utf8))
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
            flushParagraph()
            if !lists.isEmpty { lists.removeLast() }
            if listItemDepth == 0 { requestBlank() }
        case .listItem:
            flushParagraph()
            listItemDepth -= 1
            popContainer()
        case .blockquote:
            separateBlock()
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

    func addText(_ text: UnsafeBufferPointer<UInt8>) {
        if preDepth > 0 && tables.isEmpty {
            preText.append(contentsOf: text)
        } else if tables.isEmpty {
            inline.append(collapsing: text)
        } else {
            tables[tables.count - 1].withCell { $0.append(collapsing: text) }
        }
    }

    func addImage(_ attributes: HTMLAttributes) {
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
    func withInline(_ body: (inout InlineText) -> Void) {
        if tables.isEmpty { body(&inline) } else { tables[tables.count - 1].withCell(body) }
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
