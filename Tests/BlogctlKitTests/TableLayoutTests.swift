import Testing
@testable import BlogctlKit
import CoreKit
@testable import BlogctlEngines

/// A long table's rows that fit on one line are written in place (issue 46): for random
/// tables (styles, glued words, line breaks, empty and missing cells, wide characters, header
/// rows) at random widths, the same lines as each cell wrapped on its own.
@Suite struct TableLayoutTests {
    @Test func oneLineRowsInPlaceAreTheWrappedLines() {
        var generator = SeededGenerator(seed: 46_1)
        let words = ["a", "bb", "word", "東京", "café", "x\u{0301}", "longerword", "🎉"]
        let styles: [TextStyle] = [[], .bold, .underline, [.bold, .underline]]
        for _ in 0..<2_000 {
            var table = TableLayout()
            for _ in 0..<Int.random(in: 1...5, using: &generator) {
                table.inHead = Int.random(in: 0..<4, using: &generator) == 0
                table.startRow()
                for _ in 0..<Int.random(in: 0...4, using: &generator) {
                    table.startCell(header: Bool.random(using: &generator), escapesMarkdown: false)
                    for _ in 0..<Int.random(in: 0...4, using: &generator) {
                        table.withCell { cell in
                            cell.style = styles.randomElement(using: &generator)!
                            switch Int.random(in: 0..<8, using: &generator) {
                            case 0: cell.lineBreak()
                            case 1: cell.appendGlued(words.randomElement(using: &generator)!)
                            default: cell.append(collapsing: Array((" " + words.randomElement(using: &generator)! + " ").utf8))
                            }
                        }
                    }
                    table.endCell()
                }
            }
            table.endCell()
            let width = Int.random(in: 4...60, using: &generator)
            let styled = Bool.random(using: &generator)
            let inPlace = table.textLines(width: width, styled: styled, oneLineRowsInPlace: true)
            let wrapped = table.textLines(width: width, styled: styled, oneLineRowsInPlace: false)
            #expect(inPlace.map(\.bytes) == wrapped.map(\.bytes) && inPlace.map(\.width) == wrapped.map(\.width), "width \(width)")
        }
    }
}

/// A long table's rows written in parts leave their room to new rows (issue 46; since issue
/// 64 every cell is a block of the table's one text): the rows after lay out exactly as in a
/// new table, whatever the cells before held (styles, a cut, a pending prefix, Markdown
/// escapes).
@Suite struct TableCellReuseTests {
    enum Step {
        case row(head: Bool)
        case cell(header: Bool, markdown: Bool)
        /// Text in a style, or in the cell's own when nil (a new cell's: none).
        case text(TextStyle?, kind: Int, word: String)
        case end
    }

    static let long = String(repeating: "long ", count: TableLayout.cellLimit / 5 + 10)

    static func randomSteps(rows: Int, using generator: inout SeededGenerator) -> [Step] {
        let words = ["a", "bb", "word", "東京", "*x*", "x\u{0301}", "longerword", "🎉"]
        let styles: [TextStyle?] = [nil, nil, [], .bold, .underline, [.bold, .underline]]
        var steps: [Step] = []
        for _ in 0..<rows {
            steps.append(.row(head: Int.random(in: 0..<4, using: &generator) == 0))
            for _ in 0..<Int.random(in: 0...4, using: &generator) {
                steps.append(.cell(header: Bool.random(using: &generator), markdown: Bool.random(using: &generator)))
                for _ in 0..<Int.random(in: 0...4, using: &generator) {
                    // Now and then a cell past its limit, cut.
                    let word = Int.random(in: 0..<200, using: &generator) == 0 ? long : words.randomElement(using: &generator)!
                    steps.append(.text(styles.randomElement(using: &generator)!, kind: Int.random(in: 0..<8, using: &generator), word: word))
                }
                if Bool.random(using: &generator) { steps.append(.end) }
            }
        }
        return steps
    }

    static func apply(_ steps: some Sequence<Step>, to table: inout TableLayout) {
        for step in steps {
            switch step {
            case .row(let head):
                table.inHead = head
                table.startRow()
            case .cell(let header, let markdown): table.startCell(header: header, escapesMarkdown: markdown)
            case .text(let style, let kind, let word):
                table.withCell { cell in
                    if let style { cell.style = style }
                    switch kind {
                    case 0: cell.lineBreak()
                    case 1: cell.appendGlued(word)
                    case 2: cell.prefixNext("**")
                    default: cell.append(collapsing: Array((" " + word + " ").utf8))
                    }
                }
            case .end: table.endCell()
            }
        }
    }

    @Test func aReusedCellLaysOutAsANewOne() {
        var generator = SeededGenerator(seed: 46_2)
        for _ in 0..<200 {
            let before = Self.randomSteps(rows: Int.random(in: 2...6, using: &generator), using: &generator)
            let after = Self.randomSteps(rows: Int.random(in: 1...6, using: &generator), using: &generator)
            var reused = TableLayout()
            Self.apply(before, to: &reused)
            guard reused.rowCount > 1 else { continue }
            reused.setOpenRowAside()
            reused.dropCompleteRows()
            Self.apply(after, to: &reused)
            // The same table made with new cells only: the open row's steps, then the rest.
            var fresh = TableLayout()
            let openRow = before.lastIndex { if case .row = $0 { true } else { false } }!
            Self.apply(before[openRow...], to: &fresh)
            Self.apply(after, to: &fresh)
            reused.endCell()
            fresh.endCell()
            for styled in [false, true] {
                let width = Int.random(in: 4...60, using: &generator)
                let reusedLines = reused.textLines(width: width, styled: styled)
                let freshLines = fresh.textLines(width: width, styled: styled)
                #expect(reusedLines.map(\.bytes) == freshLines.map(\.bytes) && reusedLines.map(\.width) == freshLines.map(\.width))
            }
        }
    }
}
