/// `~/.netrc` (ftp(1)'s format, as curl reads it): `machine HOST login USER password PASS`,
/// tokens separated by any white space, `default` for every other host, `macdef` blocks skipped.
public struct Netrc: Sendable, Equatable {
    public struct Entry: Sendable, Equatable {
        public var machine: String?  // nil: `default`
        public var login: String?
        public var password: String?
    }

    public let entries: [Entry]

    public init(parsing text: String) {
        var entries: [Entry] = []
        var tokens = Netrc.tokens(text)[...]
        var current: Entry?
        while let token = tokens.popFirst() {
            switch token {
            case "machine":
                if let current { entries.append(current) }
                current = Entry(machine: tokens.popFirst() ?? "")
            case "default":
                if let current { entries.append(current) }
                current = Entry(machine: nil)
            case "login":
                current?.login = tokens.popFirst()
            case "password":
                current?.password = tokens.popFirst()
            case "account":
                _ = tokens.popFirst()
            case "macdef":
                // A macro runs to the next blank line; the tokenizer marks it.
                _ = tokens.popFirst()
                while let next = tokens.popFirst(), next != "\n\n" {}
            default:
                break
            }
        }
        if let current { entries.append(current) }
        self.entries = entries
    }

    /// The entry for `host`, else `default`.
    public func entry(for host: String) -> Entry? {
        entries.first { $0.machine == host } ?? entries.first { $0.machine == nil }
    }

    /// White-space separated tokens, double-quoted tokens with `\` escapes, and a `"\n\n"`
    /// marker for each blank line (which ends a `macdef`).
    static func tokens(_ text: String) -> [String] {
        var tokens: [String] = []
        var current = ""
        var inQuotes = false
        var escaped = false
        var newlines = 0
        for character in text {
            if inQuotes {
                if escaped { current.append(character); escaped = false }
                else if character == "\\" { escaped = true }
                else if character == "\"" { inQuotes = false; tokens.append(current); current = "" }
                else { current.append(character) }
                continue
            }
            if character == "\n" || character == "\r\n" {
                newlines += 1
                if newlines == 2 { tokens.append("\n\n") }
            } else if !character.isWhitespace {
                newlines = 0
            }
            if character.isWhitespace {
                if !current.isEmpty { tokens.append(current); current = "" }
            } else if character == "\"" && current.isEmpty {
                inQuotes = true
            } else {
                current.append(character)
            }
        }
        if !current.isEmpty { tokens.append(current) }
        return tokens
    }
}
