import CoreKit

/// An open `pre` block: kept verbatim (tabs expanded), fenced in Markdown. A large block is
/// written as its lines complete, so memory stays bounded: a line longer than
/// `RenderBounds.paragraphLimit` is cut (`[…]`), and in Markdown a later line holding a longer
/// run of backticks than the fence closes it and opens a longer one.
struct PreformattedBlock {
    /// How many `pre` elements are open (their text is this block's).
    var depth = 0
    private var text: [UInt8] = []
    /// Where `text`'s last line break is: found in each piece as it is appended, so that a
    /// long line of many pieces is never searched again for one.
    private var lastNewline: Int?
    /// Whether the block's first lines are out, under which fence (Markdown).
    private var started = false
    private var fence: [UInt8] = []
    /// Whether the open line was cut: the rest of it is dropped.
    private var lineCut = false
    /// The bytes searched for line breaks (part of the renderer's `work`).
    private(set) var searched = 0
    let markdown: Bool

    init(markdown: Bool) { self.markdown = markdown }

    /// Text inside `pre` (a `<br>` comes as a newline).
    mutating func append(_ piece: UnsafeBufferPointer<UInt8>, to lines: inout PageLines) {
        var piece = piece[...]
        if lineCut {
            guard let newline = piece.firstIndex(of: 0x0A) else { return }
            text += InlineText.cutMark.utf8
            lineCut = false
            piece = piece[newline...]
        }
        if let newline = piece.lastIndex(of: 0x0A) { lastNewline = text.count + (newline - piece.startIndex) }
        searched += piece.count
        text.append(contentsOf: piece)
        drainIfLarge(to: &lines)
    }

    /// Writes the complete lines of a large block, keeping its last, unfinished line.
    private mutating func drainIfLarge(to lines: inout PageLines) {
        guard text.count > RenderBounds.paragraphDrainBytes else { return }
        guard let lastNewline else {
            if text.count > RenderBounds.paragraphLimit {
                text.removeSubrange(RenderBounds.paragraphLimit...)
                lineCut = true
            }
            return
        }
        emitLines(text[..<lastNewline], last: false, to: &lines)
        text.removeSubrange(...lastNewline)
        self.lastNewline = nil
    }

    /// The block ends: what is left is written, and the fence closed.
    mutating func finish(to lines: inout PageLines) {
        if lineCut { text += InlineText.cutMark.utf8 }
        emitLines(text[...], last: true, to: &lines)
        if markdown { lines.emit(fence) }
        text.removeAll()
        lastNewline = nil
        lineCut = false
        started = false
        lines.requestBlank()
    }

    private mutating func emitLines(_ block: ArraySlice<UInt8>, last: Bool, to lines: inout PageLines) {
        var block = block
        if !started {
            if block.first == 0x0A { block.removeFirst() }
        }
        if last {
            while block.last == 0x0A || block.last == 0x20 || block.last == 0x0D { block.removeLast() }
            if started && block.isEmpty { return }
        }
        if !started {
            started = true
            // A fence longer than any backtick run inside, found in one pass.
            fence = [UInt8](repeating: UInt8(ascii: "`"), count: max(3, Self.longestRun(of: UInt8(ascii: "`"), in: block) + 1))
            if markdown { lines.emit(fence) }
        }
        for line in block.split(separator: 0x0A, omittingEmptySubsequences: false) {
            let clean = Self.verbatim(line)
            if markdown {
                let run = Self.longestRun(of: UInt8(ascii: "`"), in: clean)
                if run >= fence.count {
                    lines.emit(fence)
                    fence = [UInt8](repeating: UInt8(ascii: "`"), count: run + 1)
                    lines.emit(fence)
                }
                lines.emit(clean)
            }
            else if clean.isEmpty { lines.emitBlank() }
            else { lines.emit(Array("    ".utf8) + clean) }
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
