/// `$XDG_CONFIG_HOME/toolbox/config.yml`, read as the YAML gh's `config.yml` is written in:
/// `key: value` lines at the top (shared by every tool), and a mapping per tool (`condtest:`
/// then indented `key: value` lines) that overrides them; `#` comments; plain, "double" or
/// 'single' quoted scalars. Anything else is a problem with its line, never a silent default.
///
/// Read by Unicode scalars, never by Characters: `\r\n` is one Character to Swift (a file
/// saved on Windows would be one line), and a combining mark after `:` or a space would hide
/// it. `render` writes entries back so that they read back the same.
public struct ConfigFile: Sendable, Equatable {
    public struct Entry: Sendable, Equatable {
        public let key: String
        public let value: String
        public let line: Int
        /// The tool's mapping it is in; nil at the top.
        public let section: String?

        public init(key: String, value: String, line: Int, section: String?) {
            self.key = key
            self.value = value
            self.line = line
            self.section = section
        }
    }

    public private(set) var entries: [Entry] = []
    /// `line N: what is wrong`, one each.
    public private(set) var problems: [(line: Int, text: String)] = []

    public static func == (left: ConfigFile, right: ConfigFile) -> Bool {
        left.entries == right.entries && left.problems.map(\.line) == right.problems.map(\.line)
            && left.problems.map(\.text) == right.problems.map(\.text)
    }

    typealias Scalars = [Unicode.Scalar]

    public init(_ text: String) {
        var section: String?
        // A byte order mark at the start is no part of the first key.
        var scalars = Array(text.unicodeScalars)
        if scalars.first == "\u{FEFF}" { scalars.removeFirst() }
        // Line breaks as YAML reads them: LF, CR LF, and a CR alone.
        var lines: [Scalars] = [[]]
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "\n" || scalar == "\r" {
                if scalar == "\r" && index + 1 < scalars.count && scalars[index + 1] == "\n" { index += 1 }
                lines.append([])
            } else {
                lines[lines.count - 1].append(scalar)
            }
            index += 1
        }
        for (index, raw) in lines.enumerated() {
            let number = index + 1
            var line = raw
            line = Self.withoutComment(line)
            if line.allSatisfy({ $0 == " " || $0 == "\t" }) { continue }
            if Self.indentation(line).contains("\t") {  // character-level: an array of scalars
                problems.append((number, "a tab: YAML indents with spaces"))
                continue
            }
            let indented = line.first == " "
            let body = Scalars(line.drop { $0 == " " })
            guard let colon = body.firstIndex(of: ":"), colon > 0 else {  // character-level: an array of scalars
                problems.append((number, "expected key: value"))
                continue
            }
            let key = String(String.UnicodeScalarView(Self.trimmed(body[..<colon])))
            let rest = Self.trimmed(body[(colon + 1)...])
            guard !key.isEmpty, key.unicodeScalars.allSatisfy(Self.isKeyScalar) else {
                problems.append((number, "expected key: value"))
                continue
            }
            if !indented && rest.isEmpty {
                section = key
                continue
            }
            if indented && section == nil {
                problems.append((number, "an indented key outside a tool's mapping"))
                continue
            }
            if !indented { section = nil }
            guard let value = Self.scalar(rest) else {
                problems.append((number, "\(key): a value must be a plain or quoted scalar"))
                continue
            }
            entries.append(Entry(key: key, value: value, line: number, section: indented ? section : nil))
        }
    }

    /// Keys are ASCII letters, digits, `-` and `_`, as the long options are named.
    static func isKeyScalar(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "-" || scalar == "_"
    }

    /// The spaces and tabs a line starts with.
    static func indentation(_ line: Scalars) -> Scalars { Scalars(line.prefix { $0 == " " || $0 == "\t" }) }

    /// Without YAML's white space (space and tab; not other Unicode spaces, which are text) at both ends.
    static func trimmed(_ scalars: ArraySlice<Unicode.Scalar>) -> Scalars {
        let isBlank: (Unicode.Scalar) -> Bool = { $0 == " " || $0 == "\t" }
        return Scalars(scalars.drop(while: isBlank).reversed().drop(while: isBlank).reversed())
    }

    /// The line up to a `#` that starts a comment (at the start, or after a space or tab),
    /// outside a quoted value; a quote opens a value only where the value starts (after `: `),
    /// so `it's # note` is the value `it's`.
    static func withoutComment(_ line: Scalars) -> Scalars {
        var kept = Scalars()
        var quote: Unicode.Scalar?
        var afterColon = false
        var valueStarted = false
        var index = 0
        while index < line.count {
            let scalar = line[index]
            if let open = quote {
                kept.append(scalar)
                if open == "\"" && scalar == "\\" && index + 1 < line.count {
                    kept.append(line[index + 1])
                    index += 2
                    continue
                }
                if scalar == open {
                    // '' inside single quotes is one quote, not the end.
                    if open == "'" && index + 1 < line.count && line[index + 1] == "'" {
                        kept.append("'")
                        index += 2
                        continue
                    }
                    quote = nil
                }
                index += 1
                continue
            }
            if scalar == "#" && (kept.isEmpty || kept.last == " " || kept.last == "\t") { break }
            if afterColon && !valueStarted && scalar != " " && scalar != "\t" {
                valueStarted = true
                if scalar == "\"" || scalar == "'" { quote = scalar }
            }
            if scalar == ":" && !afterColon { afterColon = true }
            kept.append(scalar)
            index += 1
        }
        return kept
    }

    /// A plain scalar as it is; a quoted one unquoted (`''` in single quotes, backslash escapes
    /// in double quotes); nil for a flow collection, an anchor, a block scalar, an unterminated
    /// quote or an unknown escape.
    static func scalar(_ text: Scalars) -> String? {
        guard let first = text.first else { return "" }
        switch first {
        case "'":
            guard text.count >= 2, text.last == "'" else { return nil }
            var out = String.UnicodeScalarView()
            var index = 1
            while index < text.count - 1 {
                if text[index] == "'" {
                    guard index + 1 < text.count - 1, text[index + 1] == "'" else { return nil }
                    index += 1
                }
                out.append(text[index])
                index += 1
            }
            return String(out)
        case "\"":
            return doubleQuoted(text)
        case "[", "{", "&", "*", "|", ">", "!", "%", "@", "`":
            return nil
        default:
            return String(String.UnicodeScalarView(text))
        }
    }

    static func doubleQuoted(_ text: Scalars) -> String? {
        guard text.count >= 2, text.last == "\"" else { return nil }
        var out = String.UnicodeScalarView()
        var index = 1
        let end = text.count - 1
        while index < end {
            let scalar = text[index]
            if scalar == "\"" { return nil }
            guard scalar == "\\" else {
                out.append(scalar)
                index += 1
                continue
            }
            guard index + 1 < end else { return nil }
            let escape = text[index + 1]
            index += 2
            if let plain = String.unescaped(letter: escape) {
                out.append(plain)
                continue
            }
            switch escape {
            case "0": out.append("\u{0}")
            case " ": out.append(" ")
            case "x", "u", "U":
                let digits = escape == "x" ? 2 : escape == "u" ? 4 : 8
                guard index + digits <= end,
                      let value = UInt32(String(String.UnicodeScalarView(text[index..<index + digits])), radix: 16),
                      let decoded = Unicode.Scalar(value) else { return nil }
                out.append(decoded)
                index += digits
            default: return nil
            }
        }
        return String(out)
    }

    /// `entries` as a config.yml that reads back as the same keys, values and mappings: the
    /// top's entries first, then each tool's mapping; every value double-quoted, with `"`,
    /// `\` and every control, line or paragraph separator escaped.
    public static func render(_ entries: [Entry]) -> String {
        var text = ""
        for entry in entries where entry.section == nil { text += entry.key + ": " + quoted(entry.value) + "\n" }
        var sections: [String] = []
        for entry in entries { if let section = entry.section, !sections.contains(section) { sections.append(section) } }
        for section in sections {
            text += section + ":\n"
            for entry in entries where entry.section == section { text += "  " + entry.key + ": " + quoted(entry.value) + "\n" }
        }
        return text
    }

    static func quoted(_ value: String) -> String { "\"" + value.escapedForDoubleQuotes(wide: .eightDigits) + "\"" }
}
