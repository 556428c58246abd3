import CoreKit

/// Tables: rows and cells collected in `OpenTables`, laid out in columns when the table ends.
extension BodyRenderer {
    /// Inside a table, blocks flow into the current cell; returns false for what is handled as usual.
    func enterInsideTable(_ tag: HTMLTag, _ attributes: HTMLAttributes) -> Bool {
        switch tag {
        case .table:
            tables.open()
        case .tableRow, .tableCell:
            _ = tables.enter(tag, escapesMarkdown: markdown)
            drainTableIfLarge()
            if tag == .tableCell(header: true) { inlineStyle.bold(true); updateStyle() }
        case .tableHead:
            _ = tables.enter(tag, escapesMarkdown: markdown)
        case .image:
            addImage(attributes)
        case _ where tag.isBlock || tag == .lineBreak:
            separateInCell()
        default:
            return false
        }
        return true
    }

    /// A line break or a block inside a cell: the cell is one run of text, so a space.
    func separateInCell() {
        withInline { $0.append(collapsing: [0x20]) }
    }

    /// Returns true when the end tag was handled as part of a table.
    func exitInsideTable(_ tag: HTMLTag) -> Bool {
        if tag == .table {
            if let table = tables.close() { emitTable(table) }
            return true
        }
        if tag == .tableCell(header: true) { inlineStyle.bold(false); updateStyle() }
        if tables.exit(tag) { return true }
        guard tag.isBlock else { return false }
        separateInCell()
        return true
    }

    /// The outermost table's complete rows are written once it is large.
    func drainTableIfLarge() {
        tables.drainIfLarge { emitTable($0, continued: true) }
    }

    func emitTable(_ table: TableLayout, continued: Bool = false) {
        flushParagraph()
        if !table.continues { requestBlank() }
        if markdown {
            for line in table.markdownLines() { lines.emit(line) }
        } else {
            table.forEachLine(width: availableWidth, styled: options.styled) { write in lines.emit { _ = write(&$0) } }
        }
        if !continued { requestBlank() }
    }
}
