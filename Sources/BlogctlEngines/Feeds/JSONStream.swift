import CoreKit

/// What a `JSONStream` tells its reader, in document order. A string or number is decoded
/// only when the reader asks for it (`wantsScalar`): a feed's bodies are kept, the rest of
/// the document is only checked.
package protocol JSONStreamReader: AnyObject {
    /// An object (`object`) or an array opens where a value is expected.
    func begin(object: Bool)
    /// The innermost object or array closes.
    func end()
    /// An object's next key: its bytes, unescaped; nil when longer than `JSONStream.keyLimit`
    /// (no key the reader knows is that long).
    func key(_ key: [UInt8]?)
    /// Whether the scalar that starts here is wanted whole.
    func wantsScalar() -> Bool
    /// A scalar that was wanted: a string's text, or a number's or literal's spelling.
    func scalar(_ value: JSONStream.Scalar)
    /// A scalar that was not wanted, or was wanted and has been handed over.
    func skipped()
}

/// RFC 8259 JSON read as it arrives, in pieces, strictly (a control character in a string, a
/// trailing comma, a second top-level value are errors), never held: objects and arrays are
/// events, and only the strings the reader wants are kept. Nesting is limited to 512, as
/// JSONDecoder limits it.
package struct JSONStream {
    package enum Scalar: Equatable {
        case string(String)
        case number(String)
        /// true, false or null.
        case literal(String)
    }

    static let keyLimit = 64
    static let depthLimit = 512

    private enum Expect { case value, firstKeyOrEnd, key, colon, commaOrEnd, nothing }
    private enum Token {
        case none
        /// In a string; `escape` counts where in an escape the next byte falls (1 after the
        /// backslash, 2...5 in \u's four digits).
        case string(key: Bool, kept: Bool, escape: Int)
        case number(kept: Bool, state: UInt8)
        case literal(kept: Bool, spelling: StaticString, at: Int)
    }

    private var expect = Expect.value
    private var token = Token.none
    /// Each open container: true for an object.
    private var open: [Bool] = []
    private var text: [UInt8] = []
    private var unit: UInt32 = 0
    private var highSurrogate: UInt32?
    /// Whether the value expected is an array's first, so that `]` may close it.
    private var arrayOpened = false
    /// The bytes read before the piece being read.
    private var offset = 0
    /// How much of a UTF-8 byte order mark opened the document.
    private var byteOrderMark = 0
    /// In a string, the continuation bytes the character begun still needs, and the range
    /// the next one must fall in (which keeps out overlong forms and surrogates).
    private var continuations = 0
    private var nextLow: UInt8 = 0x80
    private var nextHigh: UInt8 = 0xBF

    /// What is wrong with the document, said with the place it was found.
    private struct Problem: Error { let what: String }

    /// Reads `piece`, the next bytes of the document, telling `reader` what it finds.
    mutating func add(_ piece: UnsafeBufferPointer<UInt8>, to reader: some JSONStreamReader) throws(ToolError) {
        var index = 0
        do throws(Problem) {
            try read(piece, from: &index, to: reader)
        } catch {
            throw .badData("not JSON: \(error.what) at byte \(offset + index)")
        }
        offset += piece.count
    }

    private mutating func read(_ piece: UnsafeBufferPointer<UInt8>, from index: inout Int, to reader: some JSONStreamReader) throws(Problem) {
        while index < piece.count {
            let byte = piece[index]
            switch token {
            case .string(let key, let kept, let escape):
                if escape == 0 {
                    if byte == UInt8(ascii: "\\"), continuations == 0 {
                        token = .string(key: key, kept: kept, escape: 1)
                    } else {
                        guard highSurrogate == nil else { throw Problem(what: "a \\u surrogate without its pair") }
                        if byte >= 0x80 || continuations > 0 {
                            guard checkUTF8(byte) else { throw Problem(what: "a string not in UTF-8") }
                            if kept { text.append(byte) }
                        } else if byte == UInt8(ascii: "\"") {
                            token = .none
                            finishString(key: key, kept: kept, reader: reader)
                        } else if byte < 0x20 {
                            throw Problem(what: "a control character in a string")
                        } else if kept {
                            text.append(byte)
                        }
                    }
                } else if escape == 1 {
                    if byte == UInt8(ascii: "u") {
                        unit = 0
                        token = .string(key: key, kept: kept, escape: 2)
                        index += 1
                        continue
                    }
                    guard highSurrogate == nil else { throw Problem(what: "a \\u surrogate without its pair") }
                    let escaped: UInt8
                    switch byte {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): escaped = byte
                    case UInt8(ascii: "b"): escaped = 0x08
                    case UInt8(ascii: "f"): escaped = 0x0C
                    case UInt8(ascii: "n"): escaped = 0x0A
                    case UInt8(ascii: "r"): escaped = 0x0D
                    case UInt8(ascii: "t"): escaped = 0x09
                    default: throw failure("an unknown escape", byte: byte)
                    }
                    if kept { text.append(escaped) }
                    token = .string(key: key, kept: kept, escape: 0)
                } else {
                    guard let digit = Self.hexDigit(byte) else { throw failure("a \\u escape without four hex digits", byte: byte) }
                    unit = unit << 4 | digit
                    if escape < 5 {
                        token = .string(key: key, kept: kept, escape: escape + 1)
                    } else {
                        try escaped(unit, kept: kept)
                        token = .string(key: key, kept: kept, escape: 0)
                    }
                }
                index += 1
            case .number(let kept, let state):
                guard let next = Self.numberState(state, byte) else {
                    guard Self.endsNumber(state) else { throw failure("a malformed number", byte: byte) }
                    token = .none
                    finishScalar(kept ? .number(String(decoding: text, as: UTF8.self)) : nil, reader: reader)
                    continue  // the byte that ended the number is read again, between tokens
                }
                if kept { text.append(byte) }
                token = .number(kept: kept, state: next)
                index += 1
            case .literal(let kept, let spelling, let at):
                guard spelling.utf8Start[at] == byte else { throw failure("a misspelt literal", byte: byte) }
                if at + 1 == spelling.utf8CodeUnitCount {
                    token = .none
                    finishScalar(kept ? .literal(spelling.description) : nil, reader: reader)
                } else {
                    token = .literal(kept: kept, spelling: spelling, at: at + 1)
                }
                index += 1
            case .none:
                if offset + index == byteOrderMark, byteOrderMark < 3, byte == [0xEF, 0xBB, 0xBF][byteOrderMark] {
                    byteOrderMark += 1
                } else {
                    try structural(byte, reader: reader)
                }
                index += 1
            }
        }
    }

    /// Checks that the document ended where a value may end.
    mutating func finish(_ reader: some JSONStreamReader) throws(ToolError) {
        if case .number(let kept, let state) = token, Self.endsNumber(state) {
            token = .none
            finishScalar(kept ? .number(String(decoding: text, as: UTF8.self)) : nil, reader: reader)
        }
        guard case .none = token, expect == .nothing else { throw .badData("not JSON: it ends early") }
    }

    private mutating func structural(_ byte: UInt8, reader: some JSONStreamReader) throws(Problem) {
        switch byte {
        case 0x20, 0x09, 0x0A, 0x0D: return
        default: break
        }
        switch expect {
        case .firstKeyOrEnd, .key:
            if byte == UInt8(ascii: "}"), expect == .firstKeyOrEnd { return close(object: true, reader: reader) }
            guard byte == UInt8(ascii: "\"") else { throw failure("a key expected", byte: byte) }
            text.removeAll(keepingCapacity: true)
            highSurrogate = nil
            token = .string(key: true, kept: true, escape: 0)
        case .colon:
            guard byte == UInt8(ascii: ":") else { throw failure("':' expected", byte: byte) }
            expect = .value
        case .commaOrEnd:
            if byte == UInt8(ascii: ",") {
                expect = open.last == true ? .key : .value
            } else if byte == (open.last == true ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                close(object: open.last == true, reader: reader)
            } else {
                throw failure("',' or the container's end expected", byte: byte)
            }
        case .value:
            if byte == UInt8(ascii: "]"), open.last == false, arrayOpened {
                return close(object: false, reader: reader)
            }
            try value(byte, reader: reader)
        case .nothing:
            throw failure("more after the document's end", byte: byte)
        }
    }

    private mutating func value(_ byte: UInt8, reader: some JSONStreamReader) throws(Problem) {
        arrayOpened = false
        switch byte {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            guard open.count < Self.depthLimit else { throw Problem(what: "nested deeper than \(Self.depthLimit)") }
            let object = byte == UInt8(ascii: "{")
            reader.begin(object: object)
            open.append(object)
            expect = object ? .firstKeyOrEnd : .value
            arrayOpened = !object
        case UInt8(ascii: "\""):
            let kept = reader.wantsScalar()
            text.removeAll(keepingCapacity: true)
            highSurrogate = nil
            token = .string(key: false, kept: kept, escape: 0)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            let kept = reader.wantsScalar()
            text.removeAll(keepingCapacity: true)
            if kept { text.append(byte) }
            token = .number(kept: kept, state: Self.numberState(0, byte)!)
        case UInt8(ascii: "t"): token = .literal(kept: reader.wantsScalar(), spelling: "true", at: 1)
        case UInt8(ascii: "f"): token = .literal(kept: reader.wantsScalar(), spelling: "false", at: 1)
        case UInt8(ascii: "n"): token = .literal(kept: reader.wantsScalar(), spelling: "null", at: 1)
        default: throw failure("a value expected", byte: byte)
        }
    }

    private mutating func close(object: Bool, reader: some JSONStreamReader) {
        open.removeLast()
        reader.end()
        expect = open.isEmpty ? .nothing : .commaOrEnd
        arrayOpened = false
    }

    private mutating func finishString(key: Bool, kept: Bool, reader: some JSONStreamReader) {
        if key {
            reader.key(text.count <= Self.keyLimit ? text : nil)
            expect = .colon
        } else {
            finishScalar(kept ? .string(String(decoding: text, as: UTF8.self)) : nil, reader: reader)
        }
    }

    private mutating func finishScalar(_ scalar: Scalar?, reader: some JSONStreamReader) {
        if let scalar { reader.scalar(scalar) }
        reader.skipped()
        expect = open.isEmpty ? .nothing : .commaOrEnd
    }

    /// A \\u escape's code unit, a surrogate joined with its pair; a surrogate without one
    /// is an error, as JSONSerialization and JSONDecoder hold it.
    private mutating func escaped(_ unit: UInt32, kept: Bool) throws(Problem) {
        if let high = highSurrogate {
            guard (0xDC00...0xDFFF).contains(unit) else { throw Problem(what: "a \\u surrogate without its pair") }
            highSurrogate = nil
            if kept { appendScalar(0x10000 + ((high - 0xD800) << 10) + (unit - 0xDC00)) }
        } else if (0xD800...0xDBFF).contains(unit) {
            highSurrogate = unit
        } else if (0xDC00...0xDFFF).contains(unit) {
            throw Problem(what: "a \\u surrogate without its pair")
        } else if kept {
            appendScalar(unit)
        }
    }

    private mutating func appendScalar(_ value: UInt32) {
        text.append(contentsOf: Unicode.UTF8.encode(Unicode.Scalar(value) ?? "\u{FFFD}")!)
    }

    /// Whether `byte` may come next in a string's UTF-8 (RFC 3629's table).
    private mutating func checkUTF8(_ byte: UInt8) -> Bool {
        if continuations > 0 {
            guard byte >= nextLow, byte <= nextHigh else { return false }
            continuations -= 1
            (nextLow, nextHigh) = (0x80, 0xBF)
            return true
        }
        switch byte {
        case 0xC2...0xDF: continuations = 1
        case 0xE0: (continuations, nextLow) = (2, 0xA0)
        case 0xE1...0xEC, 0xEE, 0xEF: continuations = 2
        case 0xED: (continuations, nextHigh) = (2, 0x9F)
        case 0xF0: (continuations, nextLow) = (3, 0x90)
        case 0xF1...0xF3: continuations = 3
        case 0xF4: (continuations, nextHigh) = (3, 0x8F)
        default: return false
        }
        return true
    }

    private static func hexDigit(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    /// Whether a number may end in `state` (see `numberState`).
    private static func endsNumber(_ state: UInt8) -> Bool { state == 2 || state == 3 || state == 5 || state == 8 }

    /// RFC 8259's number grammar as states: 0 start, 1 after '-', 2 a leading zero, 3 in the
    /// integer, 4 after '.', 5 in the fraction, 6 after 'e', 7 after its sign, 8 in the
    /// exponent (2, 3, 5 and 8 may end a number); nil when `byte` cannot come next.
    private static func numberState(_ state: UInt8, _ byte: UInt8) -> UInt8? {
        let digit = byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
        switch state {
        case 0: return byte == UInt8(ascii: "-") ? 1 : byte == UInt8(ascii: "0") ? 2 : digit ? 3 : nil
        case 1: return byte == UInt8(ascii: "0") ? 2 : digit ? 3 : nil
        case 2, 3:
            if state == 3, digit { return 3 }
            return byte == UInt8(ascii: ".") ? 4 : byte | 0x20 == UInt8(ascii: "e") ? 6 : nil
        case 4, 5:
            if digit { return 5 }
            return state == 5 && byte | 0x20 == UInt8(ascii: "e") ? 6 : nil
        case 6: return byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") ? 7 : digit ? 8 : nil
        case 7, 8: return digit ? 8 : nil
        default: return nil
        }
    }

    private func failure(_ what: String, byte: UInt8) -> Problem {
        Problem(what: byte >= 0x21 && byte < 0x7F ? "\(what), not '\(Character(Unicode.Scalar(byte)))'" : what)
    }
}
