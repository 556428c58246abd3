import FoundationEssentials
import ToolboxKit
import BlogctlEngines

/// The feeds subscribed to, in `$XDG_CONFIG_HOME/blogctl/urls`, written as newsboat writes its
/// urls file (a newsboat user can copy theirs over): a feed's URL a line, then its tags, a tag
/// holding spaces in double quotes, `"~Name"` naming the feed; `#` starts a comment line.
public struct Subscriptions: Sendable {
    public let path: String

    public init(path: String) { self.path = path }

    public static func standard(environment: [String: String] = Environment.current) -> Subscriptions {
        Subscriptions(path: Paths(environment: environment).config(.blogctl) + "/urls")
    }

    /// The subscriptions, in file order; none when there is no file. A line whose URL cannot
    /// be a server is left out and named to `warn`.
    public func load(warn: (String) -> Void = { _ in }) throws(ToolError) -> [Subscription] {
        guard FileTrust.exists(path) else { return [] }
        // config.yml's rule (owner, mode, every link, every folder above): the file chooses the
        // hosts blogctl asks, and may hold their passwords in its URLs.
        let text = String(decoding: try FileTrust.read(path, limit: 16 << 20), as: UTF8.self)
        let subscriptions = Self.parse(text, warn: { warn("\(path): \($0)") })
        // A query feed that cannot be used is said with the rest of the file's problems.
        _ = Self.queries(text, warn: { warn("\(path): \($0)") })
        return subscriptions
    }

    /// `load`, with what is wrong in the file said once for each content of the file, not at
    /// every command: the library remembers the last file it was said of.
    public func loadSayingProblemsOnce(environment: [String: String] = Environment.current,
                                       warn: (String) -> Void) throws(ToolError) -> [Subscription] {
        var problems: [String] = []
        let subscriptions = try load { problems.append($0) }
        guard !problems.isEmpty else { return subscriptions }
        let fingerprint = FNV1a.hash(((try? FileTrust.read(path, limit: 16 << 20)) ?? []) + Array(path.utf8)).hex
        if (try? Library.standard(environment: environment).isNew(fingerprint, for: "urls-problems")) ?? true {
            problems.forEach(warn)
        }
        return subscriptions
    }

    /// Writes `subscriptions` over what the file holds, changing only the lines of the
    /// subscriptions that changed (`edited`): every other line (comments, newsboat's `query:`,
    /// `exec:` and `filter:` feeds, blank lines, spacing) stays byte for byte. A symlinked file
    /// is written at its target, which the trust rule checked, and stays a link.
    public func save(_ subscriptions: [Subscription]) throws(ToolError) {
        let folder = String(path.dropLast("/urls".count))
        try LocalFile.makeDirectories(folder, mode: 0o700)
        let exists = FileTrust.exists(path)
        let before = exists ? try FileTrust.read(path, limit: 16 << 20) : []
        let target = exists ? try FileTrust.trustedLocation(path) : path
        let bytes = exists ? Self.edited(before, to: subscriptions) : Array(Self.format(subscriptions).utf8)
        try LocalFile.writeAtomically(target, bytes, mode: 0o600)
    }

    /// The file `original` with its subscription lines made `subscriptions`: a line whose
    /// subscription is unchanged is kept as written, a changed one is written anew in its
    /// place, a removed one goes, and new ones are added at the end. Lines that are no
    /// subscription (or repeat one) are kept as they are.
    static func edited(_ original: [UInt8], to subscriptions: [Subscription]) -> [UInt8] {
        // By bytes, as the file holds them.
        var wanted: [[UInt8]: Subscription] = [:]
        for subscription in subscriptions where wanted[Array(subscription.url.utf8)] == nil { wanted[Array(subscription.url.utf8)] = subscription }
        var written: Set<[UInt8]> = []
        var output: [UInt8] = []
        output.reserveCapacity(original.count)
        var lines = original.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        if lines.last?.isEmpty == true { lines.removeLast() }
        for line in lines {
            let text = String(decoding: line, as: UTF8.self)
            guard let current = parse(text).first else {
                output += line
                output.append(UInt8(ascii: "\n"))
                continue
            }
            // Removed: every line of it goes, a repeated one too.
            guard let replacement = wanted[Array(current.url.utf8)] else { continue }
            // A repeat, which reading ignores: kept as written.
            guard written.insert(Array(current.url.utf8)).inserted else {
                output += line
                output.append(UInt8(ascii: "\n"))
                continue
            }
            if replacement == current {
                output += line
            } else {
                output += Array(formatLine(replacement).utf8)
            }
            output.append(UInt8(ascii: "\n"))
        }
        for subscription in subscriptions where written.insert(Array(subscription.url.utf8)).inserted {
            output += Array(formatLine(subscription).utf8)
            output.append(UInt8(ascii: "\n"))
        }
        return output
    }

    /// Read by Unicode scalars, never Characters: a combining mark after `"`, `#`, `~` or a
    /// blank would fuse with it into one Character and hide it, and `\r\n` is one Character
    /// that a split at `\n` would not split.
    static func parse(_ text: String, warn: (String) -> Void = { _ in }) -> [Subscription] {
        var subscriptions: [Subscription] = []
        var seen: Set<String> = []
        for (number, line) in text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
            let words = Self.words(Substring(String(decoding: line, as: UTF8.self)))
            guard let url = words.first, url.utf8.first != UInt8(ascii: "#") else { continue }
            guard Subscription.server(for: url) != nil else {
                if url.utf8.starts(with: "query:".utf8) { continue }  // `queries`
                if let kind = ["exec:", "filter:"].first(where: { url.utf8.starts(with: $0.utf8) }) {
                    warn("line \(number + 1): \(kind) takes a command\(kind == "filter:" ? " and an http or https URL (filter:COMMAND:URL)" : ""); the line is kept, not used")
                } else {
                    warn("line \(number + 1): \(Terminal.quote(ServerURL.redacted(url))) is not an http or https URL; the line is kept, not used")
                }
                continue
            }
            guard seen.insert(url).inserted else { continue }
            var subscription = Subscription(url: url, title: "")
            for tag in words.dropFirst() {
                if tag.utf8.first == UInt8(ascii: "~") { subscription.title = String(tag.unicodeScalars.dropFirst()) } else { subscription.tags.append(tag) }
            }
            subscriptions.append(subscription)
        }
        return subscriptions
    }

    /// The query feeds of the file (newsboat's `"query:NAME:EXPRESSION" tags…` lines): entries of
    /// every subscription that the expression keeps. One whose expression does not parse is
    /// named to `warn` with its line and column, and left out.
    public func queries(warn: (String) -> Void = { _ in }) throws(ToolError) -> [QueryFeed] {
        guard FileTrust.exists(path) else { return [] }
        let text = String(decoding: try FileTrust.read(path, limit: 16 << 20), as: UTF8.self)
        return Self.queries(text, warn: { warn("\(path): \($0)") })
    }

    static func queries(_ text: String, warn: (String) -> Void = { _ in }) -> [QueryFeed] {
        var queries: [QueryFeed] = []
        for (number, line) in text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
            let words = Self.words(Substring(String(decoding: line, as: UTF8.self)))
            guard let first = words.first, first.utf8.starts(with: "query:".utf8) else { continue }
            let rest = first.unicodeScalars.dropFirst(6)
            guard let colon = rest.firstIndex(of: ":") else {
                warn("line \(number + 1): a query feed is \"query:NAME:EXPRESSION\"; the line is kept, not used")
                continue
            }
            let name = String(String.UnicodeScalarView(rest[..<colon]))
            do throws(ToolError) {
                let expression = try FilterExpression.parse(String(String.UnicodeScalarView(rest[rest.index(after: colon)...])))
                queries.append(QueryFeed(name: name, expression: expression, tags: Array(words.dropFirst())))
            } catch {
                warn("line \(number + 1): query feed \(Terminal.quote(name)): \(error.message); the line is kept, not used")
            }
        }
        return queries
    }

    /// A line's words: split at blanks, a word in double quotes kept whole (`\"` inside is a quote).
    static func words(_ line: Substring) -> [String] {
        var words: [String] = []
        var current: String.UnicodeScalarView?
        var quoted = false
        var escaped = false
        for scalar in line.unicodeScalars {
            if quoted {
                if escaped { current!.append(scalar); escaped = false }
                else if scalar == "\\" { escaped = true }
                else if scalar == "\"" { quoted = false }
                else { current!.append(scalar) }
            } else if scalar == " " || scalar == "\t" || scalar == "\r" {
                if let word = current { words.append(String(word)) }
                current = nil
            } else if scalar == "\"" {
                quoted = true
                current = current ?? String.UnicodeScalarView()
            } else {
                if current == nil { current = String.UnicodeScalarView() }
                current!.append(scalar)
            }
        }
        if let word = current { words.append(String(word)) }
        return words
    }

    static func format(_ subscriptions: [Subscription]) -> String {
        var text = "# blogctl's subscriptions: a feed's URL a line, then its tags; \"~Name\" names it\n"
        for subscription in subscriptions { text += formatLine(subscription) + "\n" }
        return text
    }

    /// One subscription's line, without its line break.
    static func formatLine(_ subscription: Subscription) -> String {
        func quoted(_ word: String) -> String {
            let plain = !word.isEmpty && !word.unicodeScalars.contains { $0 == " " || $0 == "\t" || $0 == "\"" || $0 == "\\" || $0 == "#" }
            return plain ? word : "\"" + word.escapingScalars(["\\": "\\\\", "\"": "\\\""]) + "\""
        }
        // A newline would start a line of its own: none survives into the file.
        func clean(_ text: String) -> String {
            String(String.UnicodeScalarView(text.unicodeScalars.map { $0 == "\n" || $0 == "\r" ? " " : $0 }))
        }
        var words = [clean(subscription.url)]
        if !subscription.title.isEmpty { words.append(quoted("~" + clean(subscription.title))) }
        // A word starting with ~ names the feed: a tag cannot start with one.
        words += subscription.tags.map { quoted(String(clean($0).unicodeScalars.drop { $0 == "~" })) }
        return words.joined(separator: " ")
    }
}

/// A query feed of the urls file: a name, and the filter its entries pass (every
/// subscription's, as newsboat's query feeds gather them).
public struct QueryFeed: Sendable, Equatable {
    public var name: String
    public var expression: FilterExpression
    public var tags: [String]
}
