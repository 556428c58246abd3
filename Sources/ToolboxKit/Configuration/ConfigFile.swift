/// `$XDG_CONFIG_HOME/toolbox/config.yml`, read as the YAML gh's `config.yml` is written in:
/// `key: value` lines at the top (shared by every tool), and a mapping per tool (`condtest:`
/// then indented `key: value` lines) that overrides them; `#` comments; plain, "double" or
/// 'single' quoted scalars. Anything else is a problem with its line, never a silent default.
public struct ConfigFile: Sendable, Equatable {
    public struct Entry: Sendable, Equatable {
        public let key: String
        public let value: String
        public let line: Int
        /// The tool's mapping it is in; nil at the top.
        public let section: String?
    }

    public private(set) var entries: [Entry] = []
    /// `line N: what is wrong`, one each.
    public private(set) var problems: [(line: Int, text: String)] = []

    public static func == (left: ConfigFile, right: ConfigFile) -> Bool {
        left.entries == right.entries && left.problems.map(\.line) == right.problems.map(\.line)
            && left.problems.map(\.text) == right.problems.map(\.text)
    }

    public init(_ text: String) {
        var section: String?
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = index + 1
            let line = Self.withoutComment(String(raw.hasSuffix("\r") ? raw.dropLast() : raw))
            if line.allSatisfy({ $0 == " " }) { continue }
            if line.contains("\t") {
                problems.append((number, "a tab: YAML indents with spaces"))
                continue
            }
            let indented = line.hasPrefix(" ")
            let body = line.drop { $0 == " " }
            guard let colon = body.firstIndex(of: ":") else {
                problems.append((number, "expected key: value"))
                continue
            }
            let key = String(body[..<colon]).trimmingSpaces()
            let rest = String(body[body.index(after: colon)...]).trimmingSpaces()
            guard !key.isEmpty, key.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) else {
                problems.append((number, "expected key: value"))
                continue
            }
            if indented {
                guard let section else {
                    problems.append((number, "an indented key outside a tool's mapping"))
                    continue
                }
                guard let value = Self.scalar(rest) else {
                    problems.append((number, "\(key): a value must be a plain or quoted scalar"))
                    continue
                }
                entries.append(Entry(key: key, value: value, line: number, section: section))
            } else if rest.isEmpty {
                section = key
            } else {
                section = nil
                guard let value = Self.scalar(rest) else {
                    problems.append((number, "\(key): a value must be a plain or quoted scalar"))
                    continue
                }
                entries.append(Entry(key: key, value: value, line: number, section: nil))
            }
        }
    }

    /// The line up to a `#` that starts a comment (at the start, or after a space, outside quotes).
    static func withoutComment(_ line: String) -> String {
        var quote: Character?
        var previous: Character = " "
        var kept = ""
        for character in line {
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "\"" || character == "'" {
                quote = character
            } else if character == "#" && previous == " " {
                break
            }
            kept.append(character)
            previous = character
        }
        return kept
    }

    /// A plain scalar as it is, a quoted one without its quotes; nil for a flow collection or
    /// an unterminated quote.
    static func scalar(_ text: String) -> String? {
        guard let first = text.first else { return "" }
        if first == "\"" || first == "'" {
            guard text.count >= 2, text.last == first else { return nil }
            return String(text.dropFirst().dropLast())
        }
        if first == "[" || first == "{" || first == "&" || first == "*" || first == "|" || first == ">" { return nil }
        return text
    }
}
