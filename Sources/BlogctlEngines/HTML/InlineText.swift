import CoreKit

/// The inline content of one paragraph (or of a table's cells, one block after another) as
/// byte runs ("atoms") with their display width and style. Whitespace collapses to single
/// breaks; control characters never get in, bidi controls are shown as `<U+202E>`: text from
/// the server is sanitised here, byte by byte, by `Terminal.replacement(for:)`, the rule
/// `Terminal.sanitize` applies.
package struct InlineText {
    package struct Atom {
        var start: Int
        var end: Int
        var width: Int
        var style: TextStyle
        /// A break opportunity (a space) comes before this atom.
        var spaceBefore: Bool
        /// A forced line break (`<br>`) comes before this atom.
        var breakBefore: Bool
        /// A line may end before this atom though no space comes before it: text without
        /// spaces (`LineBreakClass`).
        var softBreakBefore = false
    }

    private(set) var bytes: [UInt8] = []
    private(set) var atoms: [Atom] = []
    private var open = false
    private var pendingSpace = false
    private var pendingBreak = false
    private var pendingSoftBreak = false
    /// The line break class of the last character appended; nil after a space, at the start.
    private var lastClass: LineBreakClass?
    /// Text to put in front of the next atom, glued (Markdown's `**`, `[`).
    private var pendingPrefix: [UInt8] = []
    var style: TextStyle = [] { didSet { if style != oldValue { open = false } } }
    /// Backslash-escape Markdown's special characters in appended text.
    var escapesMarkdown = false
    /// The most bytes one block (a paragraph, a list item, a quote's text, a heading, a table
    /// cell) takes, counted since the block started (`removeAll`, `startBlock`), whatever was
    /// laid out and drained meanwhile: past it, nothing more of the block is added (text,
    /// glued markers, prefixes alike) and `[…]` marks the cut once. Every byte comes in
    /// through one door (`admits`), so what a page holds is bounded by design, not by the
    /// shape of its HTML or the kind of append.
    var byteLimit = Int.max
    /// Bytes appended to this block so far, drained lines included.
    private var blockBytes = 0
    /// Whether text was dropped at `byteLimit`.
    private(set) var isCut = false
    /// Bytes stored and bytes walked by drains, over every block since this value was made:
    /// what laying text out has cost, for tests that it grows as the input does, not faster.
    private(set) var work = 0
    static let cutMark = "[…]"

    var isEmpty: Bool { atoms.isEmpty }
    /// Where the block being appended to starts in `atoms` (`startBlock`): 0 but in a table,
    /// whose cells are blocks one after another in one text.
    private(set) var blockStart = 0
    /// Whether the block being appended to holds nothing yet.
    private var blockIsEmpty: Bool { atoms.count == blockStart }

    init() {}

    /// A text of its own made of `atoms` (a table's written cell), whose offsets index `text`.
    init(atoms cell: ArraySlice<Atom>, of text: [UInt8]) {
        guard let first = cell.first, let last = cell.last else { return }
        bytes = Array(text[first.start..<last.end])
        atoms = cell.map { atom in
            var atom = atom
            atom.start -= first.start
            atom.end -= first.start
            return atom
        }
    }

    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        atoms.removeAll(keepingCapacity: true)
        startBlock()
    }

    /// A new block starts after the text held (a table's next cell): what is held stays, and
    /// the block's own state (its spaces and breaks, its bytes, its cut) starts anew.
    mutating func startBlock() {
        open = false
        pendingSpace = false
        pendingBreak = false
        pendingSoftBreak = false
        lastClass = nil
        pendingPrefix.removeAll()
        isCut = false
        blockBytes = 0
        blockStart = atoms.count
    }

    /// Drops the first `count` atoms and the bytes before `offset`, where the next atom's
    /// start (a table's rows written): the offsets of what stays move down.
    mutating func removeFirst(atoms count: Int, bytes offset: Int) {
        atoms.removeSubrange(0..<count)
        bytes.removeSubrange(0..<offset)
        atoms.withUnsafeMutableBufferPointer { atoms in
            for index in atoms.indices {
                atoms[index].start -= offset
                atoms[index].end -= offset
            }
        }
        blockStart -= count
    }

    /// The one door every byte of a block comes in by: whether `count` more bytes fit under
    /// `byteLimit`. The first that do not cut the block: `[…]` is written once, and nothing
    /// else is let in until the next block starts, even once the lines before the cut
    /// are laid out and gone.
    private mutating func admits(_ count: Int) -> Bool {
        if isCut { return false }
        if blockBytes + count <= byteLimit { return true }
        isCut = true
        open = false
        pendingSpace = !blockIsEmpty
        pendingBreak = false
        pendingSoftBreak = false
        pendingPrefix.removeAll()
        Array(Self.cutMark.utf8).withUnsafeBufferPointer { store($0, from: 0, count: $0.count, width: 3) }
        open = false
        return false
    }

    /// A break before the next character when the one before allows it (text without spaces).
    private mutating func classify(_ next: LineBreakClass) {
        if let last = lastClass, LineBreakClass.mayBreak(last, next) {
            open = false
            pendingSoftBreak = true
        }
        lastClass = next
    }

    /// Appends text whose whitespace collapses, dropping control characters.
    mutating func append(collapsing text: [UInt8]) {
        text.withUnsafeBufferPointer { append(collapsing: $0) }
    }

    /// The same over borrowed bytes: concrete rather than generic, so that no build (the
    /// fuzzing harness's included) runs it unspecialised, a call per byte.
    mutating func append(collapsing text: UnsafeBufferPointer<UInt8>) {
        if isCut { return }
        var index = 0
        let end = text.count
        while index < end {
            let byte = text[index]
            if byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D || byte == 0x0C {
                if !blockIsEmpty || open { pendingSpace = true }
                open = false
                lastClass = nil
                index += 1
                continue
            }
            // The common case: a run of printable ASCII, appended at once.
            var runEnd = index
            while runEnd < end {
                let next = text[runEnd]
                guard next > 0x20 && next < 0x7F && !(escapesMarkdown && Self.isMarkdownSpecial(next)) else { break }
                runEnd += 1
            }
            if runEnd > index {
                if lastClass != nil && lastClass != .other { classify(LineBreakClass.of(ascii: byte)) }
                appendScalarBytes(text, from: index, count: runEnd - index, width: runEnd - index)
                lastClass = LineBreakClass.of(ascii: text[runEnd - 1])
                index = runEnd
                continue
            }
            if byte < 0x20 || byte == 0x7F { index += 1; continue }
            if byte < 0x80 {
                // A Markdown special character.
                appendByte(0x5C)
                appendScalarBytes(text, from: index, count: 1, width: 1)
                lastClass = .other
                index += 1
                continue
            }
            let (scalar, length) = UTF8Scalar.decode(text, at: index)
            guard let scalar else { index += 1; continue }  // invalid UTF-8: dropped
            if let replacement = Terminal.replacement(for: scalar) {
                // A piece of its own, glued: a line broken inside a word breaks before it, not in it.
                open = false
                appendVisible(replacement, width: replacement.utf8.count)
                open = false
                lastClass = .other
            } else {
                let width = TextWidth.width(scalar)
                classify(LineBreakClass.of(scalar, width: width))
                appendScalarBytes(text, from: index, count: length, width: width)
            }
            index += length
        }
    }

    /// Appends text whose Markdown characters are escaped already (a nested table's cells):
    /// escaped again, every backslash would double at each level of nesting, 2^depth bytes.
    mutating func append(collapsingEscaped text: [UInt8]) {
        let escapes = escapesMarkdown
        escapesMarkdown = false
        defer { escapesMarkdown = escapes }
        append(collapsing: text)
    }

    static func isMarkdownSpecial(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "\\"), UInt8(ascii: "`"), UInt8(ascii: "*"), UInt8(ascii: "_"), UInt8(ascii: "["),
             UInt8(ascii: "]"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "#"), UInt8(ascii: "|"):
            return true
        default:
            return false
        }
    }

    /// Appends text as one unbreakable piece after a space (an image's label).
    mutating func appendWord(_ text: String) {
        var text = Terminal.sanitizeField(text)
        text.withUTF8 { clean in
            // Printable ASCII (most words): a column a byte, at once.
            if clean.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return appendWord(printable: clean) }
            if isCut { return }
            startWord()
            var index = 0
            while index < clean.count {
                let (scalar, length) = UTF8Scalar.decode(clean, at: index)
                appendScalarBytes(clean, from: index, count: length, width: scalar.map(TextWidth.width) ?? 1)
                index += length
            }
        }
        open = false
    }

    /// `appendWord` of bytes known to be printable ASCII (a column a byte, nothing to clean).
    mutating func appendWord(printable word: UnsafeBufferPointer<UInt8>) {
        if isCut { return }
        startWord()
        if !word.isEmpty { appendScalarBytes(word, from: 0, count: word.count, width: word.count) }
        open = false
    }

    private mutating func startWord() {
        lastClass = nil
        open = false
        if !blockIsEmpty { pendingSpace = true }
    }

    /// Glues `text` to the end of the last atom (a link's `[3]`, Markdown's closing `**`).
    mutating func appendGlued(_ text: String) {
        Array(text.utf8).withUnsafeBufferPointer { glue($0, width: TextWidth.of(text)) }
    }

    private mutating func glue(_ bytes: UnsafeBufferPointer<UInt8>, width: Int) {
        guard !blockIsEmpty, !isCut else { return }
        lastClass = .other
        let saved = style
        style = atoms[atoms.count - 1].style
        open = true
        pendingSpace = false
        appendScalarBytes(bytes, from: 0, count: bytes.count, width: width)
        style = saved
        open = false
    }

    /// `appendGlued("[\(number)]")`, written digit by digit: a link's marker, no String made.
    mutating func appendGlued(marker number: Int) {
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // "[", at most 20 digits, "]"
        withUnsafeMutableBytes(of: &digits) { buffer in
            var value = number.magnitude
            var start = buffer.count - 1
            buffer[start] = UInt8(ascii: "]")
            repeat {
                start -= 1
                buffer[start] = UInt8(ascii: "0") + UInt8(value % 10)
                value /= 10
            } while value > 0
            start -= 1
            buffer[start] = UInt8(ascii: "[")
            let marker = UnsafeBufferPointer(rebasing: buffer.bindMemory(to: UInt8.self)[start...])
            glue(marker, width: marker.count)
        }
    }

    /// Glues `text` to the front of the next atom (Markdown's opening `**`).
    mutating func prefixNext(_ text: String) {
        pendingPrefix += Array(text.utf8)
        open = false
    }

    /// Drops a prefix that found no text to attach to; returns whether there was one.
    mutating func cancelPrefix() -> Bool {
        defer { pendingPrefix.removeAll() }
        return !pendingPrefix.isEmpty
    }

    mutating func lineBreak() {
        guard !blockIsEmpty else { return }
        pendingBreak = true
        pendingSpace = false
        open = false
    }

    /// Text of our own (a bidi control's visible form, the cut mark), glued to the text around it.
    private mutating func appendVisible(_ text: String, width: Int) {
        guard !text.isEmpty else { return }
        Array(text.utf8).withUnsafeBufferPointer { appendScalarBytes($0, from: 0, count: $0.count, width: width) }
    }

    private mutating func appendByte(_ byte: UInt8) {
        withUnsafePointer(to: byte) { appendScalarBytes(UnsafeBufferPointer(start: $0, count: 1), from: 0, count: 1, width: 1) }
    }

    /// Every append ends here, through the door (`admits`): the prefix waiting for the next
    /// atom counted with the text.
    private mutating func appendScalarBytes(_ text: UnsafeBufferPointer<UInt8>, from index: Int, count: Int, width: Int) {
        guard admits(count + (open ? 0 : pendingPrefix.count)) else { return }
        store(text, from: index, count: count, width: width)
    }

    private mutating func store(_ text: UnsafeBufferPointer<UInt8>, from index: Int, count: Int, width: Int) {
        work += count
        blockBytes += count
        guard open else {
            // A new atom, made whole before it goes in.
            var atom = Atom(start: bytes.count, end: bytes.count, width: width, style: style,
                            spaceBefore: pendingSpace && !blockIsEmpty, breakBefore: pendingBreak,
                            softBreakBefore: pendingSoftBreak && !pendingSpace && !blockIsEmpty)
            pendingSpace = false
            pendingBreak = false
            pendingSoftBreak = false
            open = true
            if !pendingPrefix.isEmpty {
                bytes += pendingPrefix
                blockBytes += pendingPrefix.count
                atom.width += TextWidth.of(String(decoding: pendingPrefix, as: UTF8.self))
                pendingPrefix.removeAll()
            }
            appendBytes(text, from: index, count: count)
            atom.end = bytes.count
            atoms.append(atom)
            return
        }
        appendBytes(text, from: index, count: count)
        let end = bytes.count
        atoms.withUnsafeMutableBufferPointer { atoms in
            atoms[atoms.count - 1].end = end
            atoms[atoms.count - 1].width += width
        }
    }

    @inline(__always)
    private mutating func appendBytes(_ text: UnsafeBufferPointer<UInt8>, from index: Int, count: Int) {
        Self.append(UnsafeBufferPointer(rebasing: text[index..<(index + count)]), to: &bytes)
    }

    /// `piece` appended to `buffer`: one scalar's bytes (at most 4) one by one, as a generic
    /// append of a few bytes costs several times their copy (text outside ASCII, a character
    /// at a time).
    @inline(__always)
    static func append(_ piece: UnsafeBufferPointer<UInt8>, to buffer: inout [UInt8]) {
        if piece.count <= 4 {
            for byte in piece { buffer.append(byte) }
        } else {
            buffer.append(contentsOf: piece)
        }
    }

    /// The plain text on one line (table cells, underlines), without styles.
    var singleLine: [UInt8] {
        var line: [UInt8] = []
        for atom in atoms {
            if (atom.spaceBefore || atom.breakBefore) && !line.isEmpty { line.append(0x20) }
            line += bytes[atom.start..<atom.end]
        }
        return line
    }

    /// What laying a text out in columns needs of it, read in one pass over its atoms.
    struct OneLineFacts {
        /// Its width on one line.
        var width = 0
        /// The widest unbreakable word, the least a column can be.
        var longestWord = 0
        /// No forced break after its first atom and no atom without width (the rules for
        /// those depend on what came before): `layOut` makes it one line where it fits.
        var isPlain = true
    }

    var oneLineFacts: OneLineFacts {
        atoms.withUnsafeBufferPointer(Self.oneLineFacts)
    }

    static func oneLineFacts(_ atoms: UnsafeBufferPointer<Atom>) -> OneLineFacts {
            var facts = OneLineFacts()
            var word = 0
            for index in atoms.indices {
                let atom = atoms[index]
                if index > 0 && (atom.spaceBefore || atom.breakBefore) { facts.width += 1 }
                facts.width += atom.width
                if atom.spaceBefore || atom.breakBefore || atom.softBreakBefore { word = 0 }
                word += atom.width
                facts.longestWord = max(facts.longestWord, word)
                if atom.width == 0 || (index > 0 && atom.breakBefore) { facts.isPlain = false }
            }
            return facts
    }

    var singleLineWidth: Int { oneLineFacts.width }

    /// Lays out every line but the last, which may still grow, and keeps that one: a paragraph
    /// of any length is laid out in bounded memory, in the same lines as all at once (a line
    /// break depends only on the line it ends). `markdownBreaks`: a line may only end before a
    /// word that cannot start a Markdown block (a letter or a non-ASCII character), so that a
    /// soft break changes nothing; Markdown paragraphs are otherwise one line.
    mutating func drainLines(width: Int, styled: Bool, markdownBreaks: Bool, _ body: ([UInt8], Int) -> Void) {
        let held = layOut(width: width, styled: styled, holdingLast: true, markdownBreaks: markdownBreaks, body)
        work += held.walked
        guard held.atom < atoms.count else { return }
        let offset = held.byte
        guard offset > 0 else { return }
        atoms.removeSubrange(0..<held.atom)
        if atoms[0].start < offset {
            // The held line starts inside a word broken at the width: its first part is out.
            atoms[0].width -= held.widthBefore
            atoms[0].spaceBefore = false
            atoms[0].breakBefore = false
            atoms[0].softBreakBefore = false
            atoms[0].start = offset
        }
        bytes.removeSubrange(0..<offset)
        for index in atoms.indices {
            atoms[index].start -= offset
            atoms[index].end -= offset
        }
    }
}
