/// Follows HTML's markup byte by byte as libxml2 2.9's HTML parser reads it: text, a start
/// tag and its attributes, an end tag, a comment, a declaration, and the raw text of script
/// and style. `HTMLStream` counts start tags with it, so it must never think itself inside
/// markup where libxml2 reads text: a start tag missed is one that nests uncounted. Where
/// libxml2's rules are unclear it errs towards text (a start tag counted that libxml2 then
/// skips only costs a parse call).
package struct MarkupScanner: Equatable {
    /// Inside a start tag, as `htmlParseStartTag` reads it: a quote opens a value only after
    /// `=`; anything else that is no attribute name is skipped to the next blank.
    package enum Tag: Equatable { case name, between, bogus, attributeName, afterName, beforeValue, unquoted, quoted(UInt8) }
    package enum State: Equatable { case text, open, bang, bangDash, comment, declaration, doctype, endOpen, endTag, startTag(Tag), rawText }

    private(set) var state = State.text
    /// Comment: the run of `-` just read (`-->` ends it, and so does `--!>`), and whether a
    /// `!` followed it.
    private var dashes = 0
    private var bangAfterDashes = false
    /// Declaration: letters of `DOCTYPE` matched (-1: none); raw text: bytes of `</script` or
    /// `</style` matched.
    private var matched = 0
    /// A doctype's quoted literal (its `>` is no end).
    private var quote: UInt8 = 0
    /// A start tag's name, packed (to know script and style), and whether `/>` ends it.
    private var name: UInt64 = 0
    private var nameLength = 0
    private var slash = false
    /// Which raw text: the end tag that ends it, lowercase.
    /// Its bytes packed as `name` is (`</script` fills the eight), and how many: a scanner
    /// holds no reference, so copying one costs nothing.
    private var rawEnd: UInt64 = 0
    private(set) var rawEndCount = 0
    /// After raw text's `</script`: whether the name goes on (`</scripts>`), an end tag
    /// libxml2 ignores, reading raw text again after it.
    private var checksRawName = false
    private var rawAgain = false
    /// Whether the start tag last read ended with `/>` (false until it ends).
    private(set) var closedItself = false

    var inText: Bool { state == .text }
    /// Inside a start tag's quoted value: the quote that ends it.
    var valueQuote: UInt8? { if case .startTag(.quoted(let quote)) = state { quote } else { nil } }
    var isInStartTag: Bool { if case .startTag = state { true } else { false } }
    /// The one byte that can change the state from here, where there is one: every other byte
    /// leaves it as it is, so a reader may skip to it at memchr's speed (raw text away from a
    /// possible end tag: `<`; a comment away from its closing dashes: `-`).
    var onlyChangedBy: UInt8? {
        switch state {
        case .rawText where matched == 0: UInt8(ascii: "<")
        case .comment where dashes == 0 && !bangAfterDashes: UInt8(ascii: "-")
        default: nil
        }
    }
    /// A doctype's open literal, whose quote must close before its `>`.
    var doctypeQuote: UInt8? { state == .doctype && quote != 0 ? quote : nil }

    /// A `<` in text: what `step` does with it, for a reader that found it by searching.
    @inline(__always)
    mutating func open() {
        assert(state == .text)
        state = .open
    }

    mutating func scan(_ bytes: some Sequence<UInt8>) {
        for byte in bytes { _ = step(byte) }
    }

    /// Reads `byte`; true when it is a quote in a start tag that opens no value (libxml2's
    /// lookup for the tag's end takes it for one and waits for its match: `HTMLStream` hands
    /// it over as a character reference).
    @discardableResult @inline(__always)
    mutating func step(_ byte: UInt8) -> Bool {
        switch state {
        case .text:
            if byte == UInt8(ascii: "<") { state = .open }
        case .open:
            switch byte {
            case UInt8(ascii: "!"): state = .bang
            case UInt8(ascii: "?"): enterDeclaration(doctype: false)
            case UInt8(ascii: "/"): state = .endOpen
            case UInt8(ascii: "<"): state = .open
            case _ where Self.isLetter(byte):
                state = .startTag(.name)
                name = UInt64(byte | 0x20)
                nameLength = 1
                slash = false
                closedItself = false
            default: state = .text  // a lone `<` is text
            }
        case .bang:
            // `<!--` opens a comment and `<!DOCTYPE` a doctype; libxml2 2.9 reads any other
            // `<!` as text.
            if byte == UInt8(ascii: "-") {
                state = .bangDash
            } else if byte | 0x20 == UInt8(ascii: "d") {
                enterDeclaration(doctype: true)
                matched = 1
            } else {
                state = .text
                return step(byte)
            }
        case .bangDash:
            if byte == UInt8(ascii: "-") {
                state = .comment
                dashes = 0
                bangAfterDashes = false
            } else {
                state = .text
                return step(byte)
            }
        case .comment:
            if byte == UInt8(ascii: ">") && dashes >= 2 { state = .text; return false }
            if byte == UInt8(ascii: "-") {
                dashes = bangAfterDashes ? 1 : dashes + 1
                bangAfterDashes = false
            } else if byte == UInt8(ascii: "!") && dashes >= 2 && !bangAfterDashes {
                bangAfterDashes = true  // `--!`: a `>` next ends the comment too
            } else {
                dashes = 0
                bangAfterDashes = false
            }
        case .declaration, .doctype:
            return stepDeclaration(byte)
        case .endOpen:
            // `</` and no name: libxml2 takes the two bytes and reads on as text.
            if Self.isNameStart(byte) {
                state = .endTag
            } else {
                state = .text
                return step(byte)
            }
        case .endTag:
            if checksRawName {
                checksRawName = false
                rawAgain = Self.isNameByte(byte)
            }
            // libxml2 skips to the first `>`, quotes or not; a NUL ends its reading too.
            if byte == UInt8(ascii: ">") || byte == 0 {
                state = rawAgain ? .rawText : .text
                matched = 0
                rawAgain = false
            }
        case .startTag(let tag):
            return stepStartTag(tag, byte)
        case .rawText:
            stepRawText(byte)
        }
        return false
    }

    /// Just after a `<` (`open`, at `bytes[open]`): a start tag (`<tr>`, `<img src=x>`) or an
    /// end tag (`</td>`) read whole, ending before `end`, leaving the scanner as `step` would
    /// leave it byte by byte. The index after it, or nil (anything else, or a tag with a stray
    /// quote or longer than `plainTagReach`: nothing read). Most markup is such tags; the
    /// stream stepping them a byte at a time cost a tenth of a table's time.
    mutating func readPlainTag(_ bytes: ArraySlice<UInt8>, at open: Int, before end: Int) -> Int? {
        guard state == .open, open + 2 < end else { return nil }
        let first = bytes[open + 1]
        if first == UInt8(ascii: "/") {
            guard Self.isNameStart(bytes[open + 2]) else { return nil }
            // libxml2 skips an end tag to its first `>`, or a NUL.
            var index = open + 3
            while index < end && bytes[index] != UInt8(ascii: ">") && bytes[index] != 0 { index += 1 }
            guard index < end else { return nil }
            state = .text
            matched = 0
            return index + 1
        }
        guard Self.isLetter(first) else { return nil }
        var packed: UInt64 = 0
        var length = 0
        var index = open + 1
        while index < end && Self.isNameByte(bytes[index]) {
            let byte = bytes[index]
            if length < 8 { packed |= UInt64(Self.isLetter(byte) ? byte | 0x20 : byte) << (8 * UInt64(length)) }
            length += 1
            index += 1
        }
        guard index < end else { return nil }
        if bytes[index] == UInt8(ascii: ">") {
            state = .startTag(.name)
            name = packed
            nameLength = length
            slash = false
            endStartTag()
            return index + 1
        }
        var tag = self
        tag.state = .startTag(.name)
        tag.name = packed
        tag.nameLength = length
        tag.slash = false
        tag.closedItself = false
        // Attributes stepped here, over a short reach: kept only when the tag ends in it with
        // no byte that needs the stream (a stray quote); else nothing was read.
        let reach = min(end, open + Self.plainTagReach)
        while index < reach {
            if case .startTag(.quoted(let quote)) = tag.state {
                // A quoted value: only its quote, or a NUL, changes anything.
                while index < reach && bytes[index] != quote && bytes[index] != 0 { index += 1 }
                guard index < reach else { return nil }
            }
            // Inside the tag: its own steps, without `step`'s dispatch on the state.
            guard case .startTag(let inTag) = tag.state else { return nil }
            if tag.stepStartTag(inTag, bytes[index]) { return nil }
            index += 1
            if !tag.isInStartTag {
                self = tag
                return index
            }
        }
        return nil
    }

    /// Just after a `<`: a plain tag read whole (`readBareTag`, else `readPlainTag`), the index
    /// after it; nil when nothing was read.
    @inline(__always)
    mutating func readTag(_ bytes: ArraySlice<UInt8>, at open: Int, before end: Int) -> Int? {
        readBareTag(bytes, at: open, before: end) ?? readPlainTag(bytes, at: open, before: end)
    }

    /// `readPlainTag` for the commonest tags, `<name>` and `</name>` with a name of letters
    /// and digits, small enough to sit in the stream's loop (calling `readPlainTag` cost more
    /// than reading such a tag). Nil for anything else, with nothing read.
    @inline(__always)
    mutating func readBareTag(_ bytes: ArraySlice<UInt8>, at open: Int, before end: Int) -> Int? {
        guard state == .open else { return nil }
        var index = open + 1
        guard index < end else { return nil }
        let closing = bytes[index] == UInt8(ascii: "/")
        if closing { index += 1 }
        let nameStart = index
        var packed: UInt64 = 0
        while index < end {
            let byte = bytes[index]
            let letter = Self.isLetter(byte)
            guard letter || byte &- UInt8(ascii: "0") < 10 else { break }
            let length = index - nameStart
            if length < 8 { packed |= UInt64(letter ? byte | 0x20 : byte) << (8 * UInt64(length)) }
            index += 1
        }
        guard index < end, bytes[index] == UInt8(ascii: ">"), index > nameStart, Self.isLetter(bytes[nameStart]) else { return nil }
        if closing {
            state = .text
            matched = 0
        } else {
            name = packed
            nameLength = index - nameStart
            slash = false
            endStartTag()
        }
        return index + 1
    }

    /// The longest tag `readPlainTag` reads: longer ones are left to the stream, which skips
    /// a long value at memchr's speed.
    static let plainTagReach = 512

    private mutating func enterDeclaration(doctype: Bool) {
        state = .declaration
        matched = doctype ? 0 : -1
        quote = 0
    }

    /// A processing instruction ends at `>`; `<!` and a name other than DOCTYPE is text; a
    /// doctype ends at `>`, its quoted literals holding theirs.
    private mutating func stepDeclaration(_ byte: UInt8) -> Bool {
        if state == .doctype {
            if quote != 0 {
                if byte == quote { quote = 0 }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: ">") {
                state = .text
            }
            return false
        }
        guard matched >= 0 else {
            if byte == UInt8(ascii: ">") { state = .text }
            return false
        }
        guard byte | 0x20 == Self.doctype[matched] && Self.isLetter(byte) else {
            state = .text
            return step(byte)
        }
        matched += 1
        if matched == Self.doctype.count { state = .doctype; quote = 0 }
        return false
    }

    private mutating func stepStartTag(_ tag: Tag, _ byte: UInt8) -> Bool {
        let blank = byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
        let isQuote = byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'")
        if byte == 0 { state = .text; return false }  // libxml2 stops reading the tag at a NUL
        switch tag {
        case .quoted(let quote):
            if byte == quote { state = .startTag(.between) }
            return false
        case .unquoted:
            if byte == UInt8(ascii: ">") { endStartTag(); return false }
            if blank { state = .startTag(.between) }
            return isQuote
        case .beforeValue:
            if byte == UInt8(ascii: ">") { endStartTag(); return false }
            if isQuote { state = .startTag(.quoted(byte)) } else if !blank { state = .startTag(.unquoted) }
            return false
        case .name:
            if Self.isNameByte(byte) {
                if nameLength < 8 { name |= UInt64(Self.isLetter(byte) ? byte | 0x20 : byte) << (8 * UInt64(nameLength)) }
                nameLength += 1
                return false
            }
            return stepBetween(byte, blank: blank, isQuote: isQuote)
        case .attributeName:
            if Self.isNameByte(byte) { return false }
            if blank { state = .startTag(.afterName); return false }
            if byte == UInt8(ascii: "=") { state = .startTag(.beforeValue); return false }
            return stepBetween(byte, blank: blank, isQuote: isQuote)
        case .afterName:
            if blank { return false }
            if byte == UInt8(ascii: "=") { state = .startTag(.beforeValue); return false }
            return stepBetween(byte, blank: blank, isQuote: isQuote)
        case .between, .bogus:
            if tag == .bogus && !blank && byte != UInt8(ascii: ">") {
                slash = byte == UInt8(ascii: "/")
                return isQuote
            }
            return stepBetween(byte, blank: blank, isQuote: isQuote)
        }
    }

    /// Between attributes: a blank is skipped, `>` ends the tag (`/>` closes it too), a name
    /// starts an attribute, anything else is skipped to the next blank.
    private mutating func stepBetween(_ byte: UInt8, blank: Bool, isQuote: Bool) -> Bool {
        if byte == UInt8(ascii: ">") { endStartTag(); return false }
        if blank { state = .startTag(.between); slash = false; return false }
        if Self.isNameStart(byte) {
            state = .startTag(.attributeName)
            slash = false
            return false
        }
        state = .startTag(.bogus)
        slash = byte == UInt8(ascii: "/")
        return isQuote
    }

    /// `script` and `style` as `name` packs them (`HTMLTag.packed`), as constants: a value
    /// computed at first use is checked for at every use, once for every start tag.
    static let script: UInt64 = 0x7470_6972_6373, style: UInt64 = 0x65_6C79_7473
    /// `</script` and `</style`, packed the same way.
    static let scriptEnd: UInt64 = 0x7470_6972_6373_2F3C, styleEnd: UInt64 = 0x65_6C79_7473_2F3C
    private static let doctype = Array("doctype".utf8)

    private mutating func endStartTag() {
        state = .text
        closedItself = slash
        guard !slash, nameLength <= 6 else { return }
        // libxml2 reads a script's or a style's content as raw text, to its end tag.
        if name == Self.script { state = .rawText; rawEnd = Self.scriptEnd; rawEndCount = 8; matched = 0 }
        if name == Self.style { state = .rawText; rawEnd = Self.styleEnd; rawEndCount = 7; matched = 0 }
    }

    /// Raw text ends where `</` and the element's name begin (any case); the end tag follows.
    private mutating func stepRawText(_ byte: UInt8) {
        let expected = UInt8(truncatingIfNeeded: rawEnd >> (8 * UInt64(matched)))
        if byte == expected || (Self.isLetter(byte) && byte | 0x20 == expected) {
            matched += 1
            if matched == rawEndCount {
                state = .endTag
                checksRawName = true
            }
        } else {
            matched = byte == UInt8(ascii: "<") ? 1 : 0
        }
    }

    /// Bytes of the `</name` being matched in raw text.
    var rawEndMatched: Int { state == .rawText ? matched : 0 }

    static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") }

    /// What may start a name (`htmlParseHTMLName`): a letter, `_`, `:` or `.`.
    static func isNameStart(_ byte: UInt8) -> Bool {
        isLetter(byte) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ":") || byte == UInt8(ascii: ".")
    }

    static func isNameByte(_ byte: UInt8) -> Bool {
        isLetter(byte) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: ":")
            || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".")
    }
}
