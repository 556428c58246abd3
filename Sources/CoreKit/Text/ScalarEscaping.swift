extension String {
    /// The string with each scalar that `escapes` names replaced by its text, scalar by
    /// scalar: for text that a shell, SQL, a URL or a format will parse, where a quote followed
    /// by a combining mark is one Swift Character but still a quote to the parser, and a
    /// Character-level `replacing` would leave it bare.
    public func escapingScalars(_ escapes: [Unicode.Scalar: String]) -> String {
        guard unicodeScalars.contains(where: { escapes[$0] != nil }) else { return self }
        var result = String.UnicodeScalarView()
        for scalar in unicodeScalars {
            if let escaped = escapes[scalar] { result.append(contentsOf: escaped.unicodeScalars) } else { result.append(scalar) }
        }
        return String(result)
    }
}

/// How an escape writes a scalar past U+FFFF: JSON (and condtest's text syntax, which reads
/// as JSON does) as a surrogate pair `\uD83D\uDE00`; YAML as `\U0001F600`.
public enum WideScalarEscape: Sendable {
    case surrogatePair, eightDigits
}

extension String {
    /// What a one-letter escape after `\` stands for in JSON, YAML and condtest's text syntax
    /// alike (JSON's set, which YAML shares): nil for any other letter, which each reader
    /// handles or refuses itself.
    public static func unescaped(letter: Unicode.Scalar) -> Unicode.Scalar? {
        switch letter {
        case "\"", "\\", "/": letter
        case "b": "\u{08}"
        case "f": "\u{0C}"
        case "n": "\n"
        case "r": "\r"
        case "t": "\t"
        default: nil
        }
    }

    /// The string as the inside of a double-quoted string that JSON, YAML and condtest's text
    /// syntax read back to the same string: `"` and `\` escaped, newline, tab, return,
    /// backspace and form feed by their letters, and every other scalar the terminal rule
    /// cleans (`Terminal.replacement(for:)`: controls, bidi controls, tag characters) as a
    /// `\u` escape, so the quoted text is safe on a terminal and reads in its own order.
    public func escapedForDoubleQuotes(wide: WideScalarEscape = .surrogatePair) -> String {
        func hex(_ value: UInt32, digits: Int) -> String {
            let text = String(value, radix: 16)
            return String(repeating: "0", count: Swift.max(0, digits - text.utf8.count)) + text
        }
        var text = String.UnicodeScalarView()
        for scalar in unicodeScalars {
            let escape: String?
            switch scalar {
            case "\"": escape = "\\\""
            case "\\": escape = "\\\\"
            case "\n": escape = "\\n"
            case "\t": escape = "\\t"
            case "\r": escape = "\\r"
            case "\u{08}": escape = "\\b"
            case "\u{0C}": escape = "\\f"
            case _ where Terminal.replacement(for: scalar) == nil: escape = nil
            case _ where scalar.value <= 0xFFFF: escape = "\\u" + hex(scalar.value, digits: 4)
            case _ where wide == .eightDigits: escape = "\\U" + hex(scalar.value, digits: 8)
            default:
                let offset = scalar.value - 0x10000
                escape = "\\u" + hex(0xD800 + offset >> 10, digits: 4) + "\\u" + hex(0xDC00 + offset & 0x3FF, digits: 4)
            }
            if let escape { text.append(contentsOf: escape.unicodeScalars) } else { text.append(scalar) }
        }
        return String(text)
    }
}
