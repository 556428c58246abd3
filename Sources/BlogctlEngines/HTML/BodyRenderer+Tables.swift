import CoreKit

/// Tables: rows and cells collected in a `TableLayout`, laid out in columns when the table ends.
extension BodyRenderer {
    /// Inside a table, blocks flow into the current cell; returns false for what is handled as usual.
    func enterInsideTable(_ tag: HTMLTag, _ attributes: HTMLAttributes) -> Bool {
        switch tag {
        case .table:
            var nested = TableLayout()
            nested.nested = true
            tables.append(nested)
            return true
        case .tableRow:
            tables[tables.count - 1].startRow()
            drainTableIfLarge()
            return true
        case .tableCell(let header):
            tables[tables.count - 1].startCell(header: header, escapesMarkdown: markdown)
            drainTableIfLarge()
            if header { inlineStyle.bold(true); updateStyle() }
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
    func separateInCell() {
        withInline { $0.append(collapsing: [0x20]) }
    }

    /// Returns true when the end tag was handled as part of a table.
    func exitInsideTable(_ tag: HTMLTag) -> Bool {
        switch tag {
        case .table:
            let table = tables.removeLast()
            if tables.isEmpty {
                emitTable(table)
            } else {
                let text = table.flattened
                withInline { $0.append(collapsingEscaped: text) }
            }
            return true
        case .tableCell(let header):
            if header { inlineStyle.bold(false); updateStyle() }
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

    /// The outermost table's complete rows are written once it holds `TableLayout.drainSize`;
    /// a nested table that large takes no more cells (`TableLayout.nested`).
    func drainTableIfLarge() {
        guard tables[tables.count - 1].size > TableLayout.drainSize else { return }
        if tables.count == 1, let part = tables[0].takeCompleteRows() {
            emitTable(part, continued: true)
            tables[0].reuseCells(of: part)
        }
    }

    func emitTable(_ table: TableLayout, continued: Bool = false) {
        flushParagraph()
        if !table.continues { requestBlank() }
        if markdown {
            for line in table.markdownLines() { lines.emit(line) }
        } else {
            for line in table.textLines(width: availableWidth, styled: options.styled) { lines.emit(line.bytes) }
        }
        if !continued { requestBlank() }
    }
}
