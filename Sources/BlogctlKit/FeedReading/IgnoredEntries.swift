import FoundationEssentials
import Synchronization
import ToolboxKit

/// newsboat's `ignore-article` rules, in `$XDG_CONFIG_HOME/blogctl/ignore` as newsboat's
/// config writes them (`ignore-article "*" "title =~ \"Sponsored\""`, a feed's URL or `*`,
/// then a filter expression; lines of newsboat's config pasted whole): an entry a rule keeps
/// is left out at refresh, never written into the library. The file passes the urls file's
/// trust rule; a rule that does not parse is said with its line, and left out.
public struct IgnoredEntries: Sendable {
    struct Rule: Sendable, Equatable {
        /// `*`, or a feed's URL as `comparable` gives it.
        var feed: String
        var expression: FilterExpression
    }

    var rules: [Rule]

    /// The rules of the ignore file, read for every feed a refresh reads and parsed once a
    /// run for each content the file has had: a rule that does not parse is said once, not
    /// once for each of 200 feeds.
    public static func standard(environment: [String: String] = Environment.current, warn: (String) -> Void) -> IgnoredEntries {
        let path = Paths(environment: environment).config(.blogctl) + "/ignore"
        guard FileTrust.exists(path) else { return IgnoredEntries(rules: []) }
        let bytes: [UInt8]
        do {
            bytes = try FileTrust.read(path, limit: 1 << 20)
        } catch {
            warn(error.message)
            return IgnoredEntries(rules: [])
        }
        let key = path + "\u{0}" + FNV1a.hash(bytes).hex
        return parsed.withLock { parsed in
            if let known = parsed[key] { return known }
            let rules = parse(String(decoding: bytes, as: UTF8.self), warn: { warn("\(path): \($0)") })
            parsed[key] = rules
            return rules
        }
    }

    /// This run's parsed files, by path and content.
    private static let parsed = Mutex<[String: IgnoredEntries]>([:])

    static func parse(_ text: String, warn: (String) -> Void = { _ in }) -> IgnoredEntries {
        var rules: [Rule] = []
        for (number, line) in text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
            let words = Subscriptions.words(Substring(String(decoding: line, as: UTF8.self)))
            guard let first = words.first, first.utf8.first != UInt8(ascii: "#") else { continue }
            guard first == "ignore-article", words.count == 3 else {
                warn("line \(number + 1): not ignore-article \"FEED-URL or *\" \"EXPRESSION\"; left out")
                continue
            }
            do throws(ToolError) {
                let feed = words[1] == "*" ? "*" : Self.comparable(words[1])
                rules.append(Rule(feed: feed, expression: try FilterExpression.parse(words[2])))
            } catch {
                warn("line \(number + 1): \(error.message); left out")
            }
        }
        return IgnoredEntries(rules: rules)
    }

    /// A feed's URL as rules and refreshes compare it, however it is spelled: normalised as a
    /// request is sent (scheme and host in lower case, no default port, no user or password).
    static func comparable(_ url: String) -> String { URLReference(url)?.absolute ?? url }

    /// The matcher of the rules for the feed at `url` (`*`'s and its own), nil when none.
    public func matcher(for url: String) -> FilterMatcher? {
        let feed = Self.comparable(url)
        let expressions = rules.filter { $0.feed == "*" || $0.feed.utf8.elementsEqual(feed.utf8) }.map(\.expression)
        guard !expressions.isEmpty else { return nil }
        return FilterMatcher(expressions.count == 1 ? expressions[0] : .or(expressions))
    }
}
