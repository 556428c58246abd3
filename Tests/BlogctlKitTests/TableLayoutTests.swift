import Testing
@testable import BlogctlKit
import CoreKit

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
            let width = Int.random(in: 4...60, using: &generator)
            let styled = Bool.random(using: &generator)
            let inPlace = table.textLines(width: width, styled: styled, oneLineRowsInPlace: true)
            let wrapped = table.textLines(width: width, styled: styled, oneLineRowsInPlace: false)
            #expect(inPlace.map(\.bytes) == wrapped.map(\.bytes) && inPlace.map(\.width) == wrapped.map(\.width), "width \(width)")
        }
    }
}
