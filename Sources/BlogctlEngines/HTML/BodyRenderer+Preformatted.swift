import CoreKit

/// `pre` blocks: kept verbatim (tabs expanded), fenced in Markdown. A large block is written
/// as its lines complete, so memory stays bounded: a line longer than `paragraphLimit` is cut
/// (`[…]`), and in Markdown a later line holding a longer run of backticks than the fence
/// closes it and opens a longer one.
extension BodyRenderer {
    /// Text inside `pre` (a `<br>` comes as a newline).
    func appendPreformatted(_ text: UnsafeBufferPointer<UInt8>) {
        var text = text[...]
        if preLineCut {
            guard let newline = text.firstIndex(of: 0x0A) else { return }
            preText += InlineText.cutMark.utf8
            preLineCut = false
            text = text[newline...]
        }
        if let newline = text.lastIndex(of: 0x0A) { preLastNewline = preText.count + (newline - text.startIndex) }
        preSearched += text.count
        preText.append(contentsOf: text)
        drainPreformattedIfLarge()
    }

    /// Writes the complete lines of a large block, keeping its last, unfinished line.
    func drainPreformattedIfLarge() {
        guard preText.count > Self.paragraphDrainBytes else { return }
        guard let lastNewline = preLastNewline else {
            if preText.count > Self.paragraphLimit {
                preText.removeSubrange(Self.paragraphLimit...)
                preLineCut = true
            }
            return
        }
        emitPreformattedLines(preText[..<lastNewline], last: false)
        preText.removeSubrange(...lastNewline)
        preLastNewline = nil
    }

    func emitPreformatted() {
        if preLineCut { preText += InlineText.cutMark.utf8 }
        emitPreformattedLines(preText[...], last: true)
        if markdown { emitLine(preFence, width: preFence.count) }
        preText.removeAll()
        preLastNewline = nil
        preLineCut = false
        preStarted = false
        requestBlank()
    }

    private func emitPreformattedLines(_ block: ArraySlice<UInt8>, last: Bool) {
        var text = block
        if !preStarted {
            if text.first == 0x0A { text.removeFirst() }
        }
        if last {
            while text.last == 0x0A || text.last == 0x20 || text.last == 0x0D { text.removeLast() }
            if preStarted && text.isEmpty { return }
        }
        if !preStarted {
            preStarted = true
            // A fence longer than any backtick run inside, found in one pass.
            preFence = [UInt8](repeating: UInt8(ascii: "`"), count: max(3, Self.longestRun(of: UInt8(ascii: "`"), in: text) + 1))
            if markdown { emitLine(preFence, width: preFence.count) }
        }
        for line in text.split(separator: 0x0A, omittingEmptySubsequences: false) {
            let clean = Self.verbatim(line)
            if markdown {
                let run = Self.longestRun(of: UInt8(ascii: "`"), in: clean)
                if run >= preFence.count {
                    emitLine(preFence, width: preFence.count)
                    preFence = [UInt8](repeating: UInt8(ascii: "`"), count: run + 1)
                    emitLine(preFence, width: preFence.count)
                }
                emitLine(clean, width: 0)
            }
            else if clean.isEmpty { emitBlankLine() }
            else { emitLine(Array("    ".utf8) + clean, width: 0) }
        }
    }

    /// The length of the longest run of `byte` in `bytes`.
    static func longestRun(of byte: UInt8, in bytes: some Collection<UInt8>) -> Int {
        var longest = 0
        var current = 0
        for item in bytes {
            current = item == byte ? current + 1 : 0
            longest = max(longest, current)
        }
        return longest
    }

    /// A `pre` line as it is, tabs expanded to 8-column stops, control characters dropped and
    /// bidi controls shown, by `Terminal.replacement(for:)`.
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
                if let scalar {
                    if let replacement = Terminal.replacement(for: scalar) {
                        result += replacement.utf8
                        column += replacement.utf8.count
                    } else {
                        result += line[index..<(index + length)]
                        column += TextWidth.width(scalar)
                    }
                }
                index += length
            }
        }
        while result.last == 0x20 { result.removeLast() }
        return result
    }
}
