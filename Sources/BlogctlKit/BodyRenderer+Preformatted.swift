import ToolboxKit

/// `pre` blocks: kept verbatim (tabs expanded), fenced in Markdown.
extension BodyRenderer {
    func emitPreformatted() {
        var text = preText
        preText.removeAll()
        if text.first == 0x0A { text.removeFirst() }
        while text.last == 0x0A || text.last == 0x20 || text.last == 0x0D { text.removeLast() }
        // A fence longer than any backtick run inside, found in one pass.
        let fence = [UInt8](repeating: UInt8(ascii: "`"), count: max(3, Self.longestRun(of: UInt8(ascii: "`"), in: text) + 1))
        if markdown { emitLine(fence, width: fence.count) }
        for line in text.split(separator: 0x0A, omittingEmptySubsequences: false) {
            let clean = Self.verbatim(line)
            if markdown { emitLine(clean, width: 0) }
            else if clean.isEmpty { emitBlankLine() }
            else { emitLine(Array("    ".utf8) + clean, width: 0) }
        }
        if markdown { emitLine(fence, width: fence.count) }
        requestBlank()
    }

    /// The length of the longest run of `byte` in `bytes`.
    static func longestRun(of byte: UInt8, in bytes: [UInt8]) -> Int {
        var longest = 0
        var current = 0
        for item in bytes {
            current = item == byte ? current + 1 : 0
            longest = max(longest, current)
        }
        return longest
    }

    /// A `pre` line as it is, tabs expanded to 8-column stops, control characters dropped.
    static func verbatim(_ line: ArraySlice<UInt8>) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(line.count)
        var column = 0
        var index = line.startIndex
        while index < line.endIndex {
            let byte = line[index]
            if byte == 0x09 {
                let spaces = 8 - column % 8
                result += [UInt8](repeating: 0x20, count: spaces)
                column += spaces
                index += 1
            } else if byte < 0x20 || byte == 0x7F {
                index += 1
            } else if byte < 0x80 {
                result.append(byte)
                column += 1
                index += 1
            } else {
                let (scalar, length) = UTF8Scalar.decode(line, at: index)
                if let scalar, !(0x80...0x9F).contains(scalar.value) {
                    result += line[index..<(index + length)]
                    column += TextWidth.width(scalar)
                }
                index += length
            }
        }
        while result.last == 0x20 { result.removeLast() }
        return result
    }
}
