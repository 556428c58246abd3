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

    /// Greedy line breaking; returns the index of the first atom of the line held back (with
    /// `holdingLast`), else `atoms.count`.
    func layOut(width: Int, styled: Bool, holdingLast: Bool, markdownBreaks: Bool,
                        _ body: ([UInt8], Int) -> Void) -> Int {
        var line: [UInt8] = []
        line.reserveCapacity(min(width, 512) * 2 + 16)
        var lineWidth = 0
        var lineStyle: TextStyle = []
        var linesOut = 0
        var lineStart = 0
        func endLine() {
            if styled && !lineStyle.isEmpty { line += TextStyle.reset }
            body(line, lineWidth)
            linesOut += 1
            line.removeAll(keepingCapacity: true)
            lineWidth = 0
            lineStyle = []
        }
        bytes.withUnsafeBufferPointer { text in
            atoms.withUnsafeBufferPointer { atoms in
                var index = 0
                while index < atoms.count {
                    // A word: this atom and those glued to it.
                    var last = index
                    var wordWidth = atoms[index].width
                    while last + 1 < atoms.count && !atoms[last + 1].spaceBefore && !atoms[last + 1].breakBefore {
                        last += 1
                        wordWidth += atoms[last].width
                    }
                    let first = atoms[index]
                    let mayBreak = !markdownBreaks || first.start == first.end || Self.canStartMarkdownLine(text[first.start])
                    if first.breakBefore && (lineWidth > 0 || linesOut > 0) { endLine(); lineStart = index }
                    else if lineWidth > 0 && lineWidth + 1 + wordWidth > width && mayBreak { endLine(); lineStart = index }
                    else if lineWidth > 0 && first.spaceBefore {
                        if styled && !lineStyle.isEmpty && !lineStyle.isSubset(of: first.style) {
                            line += TextStyle.reset
                            lineStyle = []
                        }
                        line.append(0x20)
                        lineWidth += 1
                    }
                    for position in index...last {
                        let atom = atoms[position]
                        if styled && atom.style != lineStyle {
                            line += atom.style.isEmpty ? TextStyle.reset : atom.style.sequence
                            lineStyle = atom.style
                        }
                        line.append(contentsOf: UnsafeBufferPointer(rebasing: text[atom.start..<atom.end]))
                        lineWidth += atom.width
                    }
                    index = last + 1
                }
            }
        }
        if holdingLast { return lineStart }
        if lineWidth > 0 || !line.isEmpty { endLine() }
        return atoms.count
    }

    /// Whether `layOut` would make this text one line at `width` (or none, empty): no forced
    /// break after its first atom, no atom without width (the rules for those depend on what
    /// came before), and all of it no wider than `width`.
    func fitsOneLine(width: Int) -> Bool {
        for (index, atom) in atoms.enumerated() where atom.width == 0 || (index > 0 && atom.breakBefore) { return false }
        return singleLineWidth <= width
    }

    /// The one line `layOut` makes of a text that `fitsOneLine`, appended to `line`; its width.
    func appendOneLine(to line: inout [UInt8], styled: Bool) -> Int {
        var width = 0
        var lineStyle: TextStyle = []
        bytes.withUnsafeBufferPointer { text in
            for (index, atom) in atoms.enumerated() {
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
                line.append(contentsOf: UnsafeBufferPointer(rebasing: text[atom.start..<atom.end]))
                width += atom.width
            }
        }
        if styled && !lineStyle.isEmpty { line += TextStyle.reset }
        return width
    }

    /// A letter or a non-ASCII byte: no Markdown block (list, heading, quote, rule, code) starts so.
    static func canStartMarkdownLine(_ byte: UInt8) -> Bool {
        byte >= 0x80 || ((byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z"))
    }
}
