import CoreKit

/// Laying inline text out in lines: greedy breaking at spaces, styles drawn per line, and a
/// long paragraph laid out as its lines complete.
extension InlineText {
    /// Breaks the text into lines of at most `width` columns (a longer word gets a line of its
    /// own), each with its styles drawn when `styled`. Returns the lines and their widths.
    func lines(width: Int, styled: Bool) -> [(bytes: [UInt8], width: Int)] {
        var result: [(bytes: [UInt8], width: Int)] = []
        forEachLine(width: width, styled: styled) { result.append(($0, $1)) }
        return result
    }

    /// As `lines`, handing each line to `body` in one buffer that is reused: no allocation per
    /// line, for pages of hundreds of thousands of lines.
    func forEachLine(width: Int, styled: Bool, _ body: ([UInt8], Int) -> Void) {
        _ = layOut(width: width, styled: styled, holdingLast: false, markdownBreaks: false, body)
    }

    /// Where the line `layOut` held back starts: an atom, the byte of `bytes` it starts at
    /// (inside the atom when a word wider than the line was broken), and the width of the
    /// atom's part before that byte.
    package struct HeldLine {
        var atom: Int
        var byte: Int
        var widthBefore: Int
        /// Bytes laid out to find it, the held line's included (the work a drain costs).
        var walked = 0
    }

    /// Greedy line breaking: at spaces, where text without spaces allows (`softBreakBefore`),
    /// and inside a word wider than the line, at the width (as lynx and w3m break it), so that
    /// no line is wider than `width`, whatever the markup glues. Returns where the line held
    /// back starts (with `holdingLast`), else the end.
    func layOut(width: Int, styled: Bool, holdingLast: Bool, markdownBreaks: Bool,
                _ body: ([UInt8], Int) -> Void) -> HeldLine {
        var line: [UInt8] = []
        line.reserveCapacity(min(width, 512) * 2 + 16)
        var lineWidth = 0
        var lineStyle: TextStyle = []
        var linesOut = 0
        var held = HeldLine(atom: 0, byte: atoms.first?.start ?? 0, widthBefore: 0)
        var walked = 0
        func endLine() {
            if styled && !lineStyle.isEmpty { line += TextStyle.reset }
            walked += line.count
            body(line, lineWidth)
            linesOut += 1
            line.removeAll(keepingCapacity: true)
            lineWidth = 0
            lineStyle = []
        }
        func select(_ style: TextStyle) {
            if styled && style != lineStyle {
                line += style.isEmpty ? TextStyle.reset : style.sequence
                lineStyle = style
            }
        }
        bytes.withUnsafeBufferPointer { text in
            atoms.withUnsafeBufferPointer { atoms in
                var index = 0
                while index < atoms.count {
                    // A word: this atom and those glued to it.
                    var last = index
                    var wordWidth = atoms[index].width
                    while last + 1 < atoms.count && !atoms[last + 1].spaceBefore && !atoms[last + 1].breakBefore
                            && !(atoms[last + 1].softBreakBefore && !markdownBreaks) {
                        last += 1
                        wordWidth += atoms[last].width
                    }
                    let first = atoms[index]
                    // Markdown breaks only where the next line cannot start a block, unless the
                    // line is twice the width already: then anywhere, so no line grows unbounded.
                    let mayBreak = !markdownBreaks || first.start == first.end || Self.canStartMarkdownLine(text[first.start])
                        || lineWidth >= 2 * width
                    let space = first.spaceBefore ? 1 : 0
                    if first.breakBefore && (lineWidth > 0 || linesOut > 0) {
                        endLine()
                        held = HeldLine(atom: index, byte: first.start, widthBefore: 0)
                    } else if lineWidth > 0 && lineWidth + space + wordWidth > width && mayBreak {
                        endLine()
                        held = HeldLine(atom: index, byte: first.start, widthBefore: 0)
                    } else if lineWidth > 0 && first.spaceBefore {
                        if styled && !lineStyle.isEmpty && !lineStyle.isSubset(of: first.style) {
                            line += TextStyle.reset
                            lineStyle = []
                        }
                        line.append(0x20)
                        lineWidth += 1
                    }
                    if lineWidth + wordWidth <= width {
                        for position in index...last {
                            let atom = atoms[position]
                            select(atom.style)
                            line.append(contentsOf: UnsafeBufferPointer(rebasing: text[atom.start..<atom.end]))
                            lineWidth += atom.width
                        }
                    } else {
                        // Wider than the line: broken at the width, before a glued piece that
                        // fits a line (a link's number, a `<U+202E>`), else between characters.
                        for position in index...last {
                            let atom = atoms[position]
                            if atom.width <= width {
                                if lineWidth > 0 && lineWidth + atom.width > width
                                    && (!markdownBreaks || atom.start == atom.end || Self.canStartMarkdownLine(text[atom.start])
                                        || lineWidth >= 2 * width) {
                                    endLine()
                                    held = HeldLine(atom: position, byte: atom.start, widthBefore: 0)
                                }
                                select(atom.style)
                                line.append(contentsOf: UnsafeBufferPointer(rebasing: text[atom.start..<atom.end]))
                                lineWidth += atom.width
                                continue
                            }
                            var byte = atom.start
                            var before = 0
                            while byte < atom.end {
                                let (scalar, length) = UTF8Scalar.decode(text, at: byte)
                                let columns = scalar.map { TextWidth.width($0) } ?? 1
                                let startsLine = !markdownBreaks || Self.canStartMarkdownLine(text[byte]) || lineWidth >= 2 * width
                                if lineWidth > 0 && lineWidth + columns > width && startsLine {
                                    endLine()
                                    held = HeldLine(atom: position, byte: byte, widthBefore: before)
                                }
                                select(atom.style)
                                Self.append(UnsafeBufferPointer(rebasing: text[byte..<(byte + length)]), to: &line)
                                lineWidth += columns
                                before += columns
                                byte += length
                            }
                        }
                    }
                    index = last + 1
                }
            }
        }
        if holdingLast {
            held.walked = walked + line.count
            return held
        }
        if lineWidth > 0 || !line.isEmpty { endLine() }
        return HeldLine(atom: atoms.count, byte: bytes.count, widthBefore: 0, walked: walked)
    }

    /// The one line `layOut` makes of a text that is plain and fits (`oneLineFacts`), appended to `line`; its width.
    func appendOneLine(to line: inout [UInt8], styled: Bool) -> Int {
        // Over buffer pointers, with nothing of `self` captured: a closure capturing `self` copied
        // the cell (a retain and a release of each of its buffers) for every row of a table.
        bytes.withUnsafeBufferPointer { text in
            atoms.withUnsafeBufferPointer { atoms in Self.appendOneLine(text, atoms, to: &line, styled: styled) }
        }
    }

    @inline(__always)
    static func appendOneLine(_ text: UnsafeBufferPointer<UInt8>, _ atoms: UnsafeBufferPointer<Atom>,
                                      to line: inout [UInt8], styled: Bool) -> Int {
        var width = 0
        var lineStyle: TextStyle = []
        for index in atoms.indices {
            let atom = atoms[index]
            if index > 0 && atom.spaceBefore {
                if styled && !lineStyle.isEmpty && !lineStyle.isSubset(of: atom.style) {
                    line += TextStyle.reset
                    lineStyle = []
                }
                line.append(0x20)
                width += 1
            }
            if styled && atom.style != lineStyle {
                line += atom.style.isEmpty ? TextStyle.reset : atom.style.sequence
                lineStyle = atom.style
            }
            append(UnsafeBufferPointer(rebasing: text[atom.start..<atom.end]), to: &line)
            width += atom.width
        }
        if styled && !lineStyle.isEmpty { line += TextStyle.reset }
        return width
    }

    /// A letter or a non-ASCII byte: no Markdown block (list, heading, quote, rule, code) starts so.
    static func canStartMarkdownLine(_ byte: UInt8) -> Bool {
        byte >= 0x80 || ((byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z"))
    }
}
