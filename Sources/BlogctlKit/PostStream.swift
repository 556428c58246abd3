import FoundationEssentials
import CoreKit

/// `GET /post/:id`'s answer, `{"id": …, "metadata": {…}, "body": "…"}`, read as its bytes
/// arrive: the body string is decoded into `body` piece by piece (to the cache's gzip file),
/// never held; every other member's value is kept as raw JSON, at most `memberLimit` bytes,
/// for the one JSON decoder to read afterwards. The members may come in any order.
struct PostStream {
    enum Failure: Error, Equatable {
        case malformed(String)

        var detail: String {
            switch self { case .malformed(let detail): detail }
        }
    }

    /// The most one member other than the body may hold (the metadata is a few hundred bytes).
    static let memberLimit = 1 << 20

    private enum State {
        case start, beforeKey, key, afterKey, beforeValue
        /// Inside the body string; `escape` holds a backslash sequence being read.
        case body
        /// Inside another member's value: its nesting depth, whether in a string and after a backslash.
        case value(depth: Int, inString: Bool, escaped: Bool)
        case afterValue, end
    }

    private var state = State.start
    private var key: [UInt8] = []
    private var keyEscaped = false
    private var raw: [UInt8] = []
    /// The raw JSON of each member but the body, by name.
    private(set) var members: [String: [UInt8]] = [:]
    private(set) var sawBody = false
    /// A backslash sequence of the body being read (`\`, `\u12`, a high surrogate waiting for its low half).
    private var escape: [UInt8] = []
    private var highSurrogate: UInt32?
    private var out: [UInt8] = []
    private let body: (UnsafeBufferPointer<UInt8>) -> Void

    init(body: @escaping (UnsafeBufferPointer<UInt8>) -> Void) {
        self.body = body
        out.reserveCapacity(1 << 16)
    }

    /// Reads the next piece of the answer.
    mutating func feed(_ bytes: UnsafeBufferPointer<UInt8>) throws(Failure) {
        var index = 0
        while index < bytes.count {
            if case .body = state, escape.isEmpty {
                // The common case: a run of plain bytes of the body, copied at once.
                var end = index
                while end < bytes.count, bytes[end] != 0x22, bytes[end] != 0x5C, bytes[end] >= 0x20 { end += 1 }
                if end > index {
                    try emit(UnsafeBufferPointer(rebasing: bytes[index..<end]))
                    index = end
                    continue
                }
            }
            try step(bytes[index])
            index += 1
        }
        flushBody()
    }

    /// The answer ended: it must have been one whole object with a body.
    mutating func finish() throws(Failure) {
        flushBody()
        guard case .end = state else { throw .malformed("the answer ends before its object does") }
        guard sawBody else { throw .malformed("no \"body\" member") }
    }

    private mutating func step(_ byte: UInt8) throws(Failure) {
        let isSpace = byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
        switch state {
        case .start:
            if isSpace { return }
            guard byte == UInt8(ascii: "{") else { throw .malformed("not a JSON object") }
            state = .beforeKey
        case .beforeKey:
            if isSpace { return }
            if byte == UInt8(ascii: "}") && members.isEmpty && !sawBody { state = .end; return }
            guard byte == 0x22 else { throw .malformed("expected a member name") }
            key = []
            keyEscaped = false
            state = .key
        case .key:
            if keyEscaped {
                keyEscaped = false
            } else if byte == 0x5C {
                keyEscaped = true
            } else if byte == 0x22 {
                // A name written with escapes (`"bo\u0064y"`) is the name they spell.
                if key.contains(0x5C), let decoded = try? JSONCoding.decode(String.self, from: Data([0x22] + key + [0x22])) {
                    key = Array(decoded.utf8)
                }
                state = .afterKey
                return
            }
            guard byte >= 0x20 else { throw .malformed("a raw control byte in a member name") }
            guard key.count < 256 else { throw .malformed("a member name longer than 256 bytes") }
            key.append(byte)
        case .afterKey:
            if isSpace { return }
            guard byte == UInt8(ascii: ":") else { throw .malformed("expected : after a member name") }
            state = .beforeValue
        case .beforeValue:
            if isSpace { return }
            if key == Array("body".utf8) {
                guard byte == 0x22 else { throw .malformed("body: expected a string") }
                guard !sawBody else { throw .malformed("body: given twice") }
                sawBody = true
                state = .body
            } else {
                raw = [byte]
                switch byte {
                case UInt8(ascii: "{"), UInt8(ascii: "["): state = .value(depth: 1, inString: false, escaped: false)
                case 0x22: state = .value(depth: 0, inString: true, escaped: false)
                default: state = .value(depth: 0, inString: false, escaped: false)
                }
            }
        case .body:
            try bodyByte(byte)
        case .value(var depth, var inString, var escaped):
            if inString {
                if escaped { escaped = false } else if byte == 0x5C { escaped = true } else if byte == 0x22 { inString = false }
            } else if byte == 0x22 {
                inString = true
            } else if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") {
                depth += 1
            } else if byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") {
                if depth == 0 {
                    // The end of the object after a scalar value.
                    try endValue()
                    try step(byte)
                    return
                }
                depth -= 1
            } else if depth == 0 && (byte == UInt8(ascii: ",") || isSpace) {
                try endValue()
                try step(byte)
                return
            }
            guard raw.count < Self.memberLimit else {
                throw .malformed("\(String(decoding: key, as: UTF8.self)): a value larger than \(Self.memberLimit) bytes")
            }
            raw.append(byte)
            state = .value(depth: depth, inString: inString, escaped: escaped)
            if depth == 0 && !inString && (byte == 0x22 || byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]")) && raw.count > 1 {
                try endValue()
            }
        case .afterValue:
            if isSpace { return }
            if byte == UInt8(ascii: ",") { state = .beforeKey; return }
            guard byte == UInt8(ascii: "}") else { throw .malformed("expected , or } after a member") }
            state = .end
        case .end:
            guard isSpace else { throw .malformed("bytes after the object") }
        }
    }

    private mutating func endValue() throws(Failure) {
        let name = String(decoding: key, as: UTF8.self)
        guard members[name] == nil else { throw .malformed("\(name): given twice") }
        // Whatever the member, its value must be JSON, as every JSON parser would have it:
        // read by the one strict reader (no empty value, no raw control byte, no lone surrogate).
        let valid = raw.withUnsafeBufferPointer { bytes in
            var scanner = JSONScanner(bytes)
            guard scanner.skipValue() else { return false }
            scanner.skipSpace()
            return scanner.isAtEnd
        }
        guard valid else { throw .malformed("\(Terminal.quote(name)): not a JSON value") }
        members[name] = raw
        raw = []
        state = .afterValue
    }

    // MARK: - The body string

    private mutating func bodyByte(_ byte: UInt8) throws(Failure) {
        if escape.isEmpty {
            if byte == 0x22 {
                guard highSurrogate == nil else { throw .malformed("body: an unpaired surrogate") }
                flushBody()
                state = .afterValue
            } else if byte == 0x5C {
                escape = [byte]
            } else {
                guard highSurrogate == nil else { throw .malformed("body: an unpaired surrogate") }
                guard byte >= 0x20 else { throw .malformed("body: a raw control byte in the string") }
                out.append(byte)
            }
            return
        }
        escape.append(byte)
        if escape.count == 2 {
            let simple: UInt8?
            switch byte {
            case 0x22, 0x5C, 0x2F: simple = byte
            case UInt8(ascii: "b"): simple = 0x08
            case UInt8(ascii: "f"): simple = 0x0C
            case UInt8(ascii: "n"): simple = 0x0A
            case UInt8(ascii: "r"): simple = 0x0D
            case UInt8(ascii: "t"): simple = 0x09
            case UInt8(ascii: "u"): return
            default: throw .malformed("body: an unknown escape \\\(Character(Unicode.Scalar(byte)))")
            }
            guard highSurrogate == nil else { throw .malformed("body: an unpaired surrogate") }
            out.append(simple!)
            escape = []
            return
        }
        guard PercentEncoding.hexValue(byte) != nil else { throw .malformed("body: a \\u escape with a non-hex digit") }
        guard escape.count == 6 else { return }
        let value = escape[2...].reduce(UInt32(0)) { $0 << 4 | UInt32(PercentEncoding.hexValue($1)!) }
        escape = []
        // A surrogate pair is one scalar; half of one is not text, and JSON parsers refuse it.
        if let high = highSurrogate {
            highSurrogate = nil
            guard (0xDC00...0xDFFF).contains(value) else { throw .malformed("body: an unpaired surrogate") }
            appendScalar(0x10000 + ((high - 0xD800) << 10) + (value - 0xDC00))
            return
        }
        switch value {
        case 0xD800...0xDBFF: highSurrogate = value
        case 0xDC00...0xDFFF: throw .malformed("body: an unpaired surrogate")
        default: appendScalar(value)
        }
    }

    private mutating func appendScalar(_ value: UInt32) {
        let scalar = Unicode.Scalar(value) ?? "\u{FFFD}"
        out.append(contentsOf: String(Character(scalar)).utf8)
    }

    private mutating func emit(_ bytes: UnsafeBufferPointer<UInt8>) throws(Failure) {
        guard highSurrogate == nil else { throw .malformed("body: an unpaired surrogate") }
        if !out.isEmpty { flushBody() }
        body(bytes)
    }

    private mutating func flushBody() {
        guard !out.isEmpty else { return }
        out.withUnsafeBufferPointer { body($0) }
        out.removeAll(keepingCapacity: true)
    }
}
