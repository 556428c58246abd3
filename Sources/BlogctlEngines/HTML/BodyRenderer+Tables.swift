import CoreKit

/// Tables: rows and cells collected in `OpenTables`, laid out in columns when the table ends.
extension BodyRenderer {
    /// Inside a table, blocks flow into the current cell; returns false for what is handled as usual.
    @inline(__always)
    func enterInsideTable(_ tag: HTMLTag, _ attributes: HTMLAttributes) -> Bool {
        switch tag {
        case .table:
            tables.open()
        case .tableRow:
            tables.startRow()
            drainTableIfLarge()
        case .tableCell(let header):
            tables.startCell(header: header, escapesMarkdown: markdown)
            drainTableIfLarge()
            if header { inlineStyle.bold(true); updateStyle() }
        case .tableHead:
            tables.setInHead(true)
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
    @inline(__always)
    func exitInsideTable(_ tag: HTMLTag) -> Bool {
        switch tag {
        case .table:
            if let table = tables.close() { emitTable(table) }
        case .tableRow:
            break
        case .tableCell(let header):
            if header { inlineStyle.bold(false); updateStyle() }
            tables.endCell()
        case .tableHead:
            tables.setInHead(false)
        case _ where tag.isBlock:
            separateInCell()
        default:
            return false
        }
        return true
    }

    /// The outermost table's complete rows are written once it is large.
    @inline(__always)
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
