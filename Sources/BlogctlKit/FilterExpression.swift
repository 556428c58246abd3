#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import CoreKit

/// newsboat's filter language (`list --filter`, the urls file's `query:` feeds): comparisons of
/// an entry's attributes joined by `and`, `or` and parentheses, as `unread = "yes" and
/// (title =~ "swift" or age < 7)`. A syntax error says at which column, as condtest's do.
public indirect enum FilterExpression: Sendable, Equatable {
    case comparison(Comparison)
    /// Every one of them (a chain is one list, never a deep tree: its length costs no stack).
    case and([FilterExpression])
    case or([FilterExpression])

    public enum Attribute: String, Sendable, CaseIterable {
        case title, author, link, content, date, age, unread, flags, feedtitle, feedurl, tags
    }

    public enum Operator: String, Sendable, CaseIterable {
        case equal = "=", notEqual = "!=", matches = "=~", notMatches = "!~", contains = "#", notContains = "!#"
        case less = "<", greater = ">", lessOrEqual = "<=", greaterOrEqual = ">=", between
    }

    public struct Comparison: Sendable, Equatable {
        public var attribute: Attribute
        public var op: Operator
        public var value: String
        /// Where the comparison starts (1-based, in characters), for an error found later.
        public var column: Int
    }

    /// Every comparison, left to right.
    var comparisons: [Comparison] {
        switch self {
        case .comparison(let comparison): [comparison]
        case .and(let parts), .or(let parts): parts.flatMap(\.comparisons)
        }
    }

    /// Parses `text`; a mistake is `column N: what was expected`.
    public static func parse(_ text: String) throws(ToolError) -> FilterExpression {
        var parser = FilterParser(Array(text.unicodeScalars))
        let expression = try parser.expression()
        parser.skipSpaces()
        guard parser.atEnd else { throw parser.error("expected \"and\", \"or\" or the end, found \(parser.rest)") }
        for comparison in expression.comparisons {
            try FilterMatcher.check(comparison)
        }
        return expression
    }
}

/// The facts about one entry a filter reads.
public struct FilterSubject {
    public var post: PostMetadata
    public var read: Bool
    public var feedTitle: String
    public var feedURL: String
    public var tags: [String]
    public var now: Date
    /// newsboat's flags of the entry: the letters a user gave it (`s` for starred).
    public var flags: String

    public init(post: PostMetadata, read: Bool, flags: String = "", feedTitle: String = "", feedURL: String = "", tags: [String] = [],
                now: Date = Date()) {
        self.post = post
        self.read = read
        self.flags = flags
        self.feedTitle = feedTitle
        self.feedURL = feedURL
        self.tags = tags
        self.now = now
    }

    /// The attribute's value as the filter compares it: text, or a number for `age` (days).
    func value(_ attribute: FilterExpression.Attribute) -> String {
        switch attribute {
        case .title: post.title
        case .author: post.author.name
        case .link: post.link ?? ""
        // The summary: a list holds no bodies.
        case .content: post.summary
        case .date: post.publishDate.map { String(ISO8601.format($0).prefix(10)) } ?? ""
        case .age: post.publishDate.map { String(Int(now.timeIntervalSince($0) / 86_400)) } ?? ""
        case .unread: read ? "no" : "yes"
        case .flags: flags
        case .feedtitle: feedTitle
        case .feedurl: feedURL
        case .tags: tags.joined(separator: " ")
        }
    }
}

/// A parsed filter made ready to test entries: its regular expressions compiled once (POSIX
/// extended, case-insensitive, as newsboat's). Made for one pass over a listing, on one thread.
public final class FilterMatcher {
    private let expression: FilterExpression
    private var patterns: [String: UnsafeMutablePointer<regex_t>] = [:]

    public init(_ expression: FilterExpression) {
        self.expression = expression
        for comparison in expression.comparisons where comparison.op == .matches || comparison.op == .notMatches {
            if patterns[comparison.value] == nil, let compiled = Self.compile(comparison.value) { patterns[comparison.value] = compiled }
        }
    }

    deinit {
        for pattern in patterns.values {
            regfree(pattern)
            pattern.deallocate()
        }
    }

    public func matches(_ subject: FilterSubject) -> Bool { evaluate(expression, subject) }

    private func evaluate(_ expression: FilterExpression, _ subject: FilterSubject) -> Bool {
        switch expression {
        case .and(let parts): parts.allSatisfy { evaluate($0, subject) }
        case .or(let parts): parts.contains { evaluate($0, subject) }
        case .comparison(let comparison): compare(comparison, subject.value(comparison.attribute))
        }
    }

    private func compare(_ comparison: FilterExpression.Comparison, _ actual: String) -> Bool {
        let expected = comparison.value
        switch comparison.op {
        case .equal: return actual.utf8.elementsEqual(expected.utf8)
        case .notEqual: return !actual.utf8.elementsEqual(expected.utf8)
        case .matches, .notMatches:
            guard let pattern = patterns[expected] else { return comparison.op == .notMatches }
            let found = actual.withCString { regexec(pattern, $0, 0, nil, 0) == 0 }
            return comparison.op == .matches ? found : !found
        case .contains, .notContains:
            let found = actual.split(separator: " ").contains { $0.utf8.elementsEqual(expected.utf8) }
            return comparison.op == .contains ? found : !found
        case .less, .greater, .lessOrEqual, .greaterOrEqual:
            guard !actual.isEmpty else { return false }
            let order = Self.order(actual, expected)
            switch comparison.op {
            case .less: return order < 0
            case .greater: return order > 0
            case .lessOrEqual: return order <= 0
            default: return order >= 0
            }
        case .between:
            guard !actual.isEmpty, let (low, high) = Self.range(expected) else { return false }
            return Self.order(actual, low) >= 0 && Self.order(actual, high) <= 0
        }
    }

    /// Numbers as numbers, anything else by its bytes (dates as `YYYY-MM-DD` order so).
    static func order(_ left: String, _ right: String) -> Int {
        if let a = Double(left), let b = Double(right) { return a < b ? -1 : a > b ? 1 : 0 }
        return left.utf8.lexicographicallyPrecedes(right.utf8) ? -1 : left.utf8.elementsEqual(right.utf8) ? 0 : 1
    }

    /// `1:5` → ("1", "5").
    static func range(_ text: String) -> (String, String)? {
        let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else { return nil }
        return (String(parts[0]), String(parts[1]))
    }

    private static func compile(_ pattern: String) -> UnsafeMutablePointer<regex_t>? {
        let compiled = UnsafeMutablePointer<regex_t>.allocate(capacity: 1)
        guard regcomp(compiled, pattern, REG_EXTENDED | REG_ICASE | REG_NOSUB) == 0 else {
            compiled.deallocate()
            return nil
        }
        return compiled
    }

    /// What is wrong with a comparison that parsed (a pattern that does not compile, a range
    /// that is none, a number expected), at its column.
    static func check(_ comparison: FilterExpression.Comparison) throws(ToolError) {
        func problem(_ text: String) -> ToolError { .usage("column \(comparison.column): \(text)") }
        switch comparison.op {
        case .matches, .notMatches:
            guard let compiled = compile(comparison.value) else {
                throw problem("\(Terminal.quote(comparison.value)) is not a regular expression (POSIX extended)")
            }
            regfree(compiled)
            compiled.deallocate()
        case .between:
            guard range(comparison.value) != nil else { throw problem("between takes a range, as 1:5, found \(Terminal.quote(comparison.value))") }
        case .less, .greater, .lessOrEqual, .greaterOrEqual:
            if comparison.attribute == .age, Double(comparison.value) == nil {
                throw problem("age is a number of days, found \(Terminal.quote(comparison.value))")
            }
        default: break
        }
    }
}

/// The recursive-descent parser of `FilterExpression`, over Unicode scalars (columns count them).
struct FilterParser {
    let text: [Unicode.Scalar]
    var position = 0
    /// Parentheses open now: past `deepest`, an error, not a stack that overflows.
    var depth = 0
    static let deepest = 64

    init(_ text: [Unicode.Scalar]) { self.text = text }

    var atEnd: Bool { position >= text.count }
    var rest: String { atEnd ? "the end" : Terminal.quote(String(String.UnicodeScalarView(text[position...].prefix(20)))) }

    func error(_ problem: String, at column: Int? = nil) -> ToolError {
        .usage("column \((column ?? position) + 1): \(problem)")
    }

    mutating func skipSpaces() {
        while !atEnd, text[position].properties.isWhitespace { position += 1 }
    }

    mutating func expression() throws(ToolError) -> FilterExpression {
        var parts = [try conjunction()]
        while keyword("or") { parts.append(try conjunction()) }
        return parts.count == 1 ? parts[0] : .or(parts)
    }

    mutating func conjunction() throws(ToolError) -> FilterExpression {
        var parts = [try primary()]
        while keyword("and") { parts.append(try primary()) }
        return parts.count == 1 ? parts[0] : .and(parts)
    }

    mutating func primary() throws(ToolError) -> FilterExpression {
        skipSpaces()
        if !atEnd, text[position] == "(" {
            let open = position
            guard depth < Self.deepest else { throw error("parentheses nested deeper than \(Self.deepest)") }
            depth += 1
            defer { depth -= 1 }
            position += 1
            let inner = try expression()
            skipSpaces()
            guard !atEnd, text[position] == ")" else { throw error("expected \")\" to close the \"(\" at column \(open + 1), found \(rest)") }
            position += 1
            return inner
        }
        let start = position
        let name = word()
        guard !name.isEmpty else { throw error("expected an attribute (\(FilterExpression.Attribute.allCases.map(\.rawValue).joined(separator: ", "))), found \(rest)") }
        guard let attribute = FilterExpression.Attribute(rawValue: name) else {
            throw error("unknown attribute \(Terminal.quote(name)); one of \(FilterExpression.Attribute.allCases.map(\.rawValue).joined(separator: ", "))", at: start)
        }
        skipSpaces()
        let opStart = position
        guard let op = operation() else {
            throw error("expected an operator (=, !=, =~, !~, #, !#, <, >, <=, >=, between) after \(name), found \(rest)", at: opStart)
        }
        skipSpaces()
        guard let value = try value() else { throw error("expected a value after \(op.rawValue), found \(rest)") }
        return .comparison(.init(attribute: attribute, op: op, value: value, column: start + 1))
    }

    /// `and`/`or` as a word of its own.
    mutating func keyword(_ word: String) -> Bool {
        skipSpaces()
        let scalars = Array(word.unicodeScalars)
        guard position + scalars.count <= text.count, Array(text[position..<(position + scalars.count)]) == scalars else { return false }
        let after = position + scalars.count
        if after < text.count, !text[after].properties.isWhitespace, text[after] != "(" { return false }
        position = after
        return true
    }

    mutating func word() -> String {
        let start = position
        while !atEnd, text[position].properties.isAlphabetic || text[position] == "_" { position += 1 }
        return String(String.UnicodeScalarView(text[start..<position]))
    }

    mutating func operation() -> FilterExpression.Operator? {
        // The longest first: `!=` before `!#`'s `!`, `<=` before `<`.
        for candidate in ["between", "=~", "!~", "!=", "!#", "<=", ">=", "=", "#", "<", ">"] {
            let scalars = Array(candidate.unicodeScalars)
            if position + scalars.count <= text.count, Array(text[position..<(position + scalars.count)]) == scalars {
                position += scalars.count
                return FilterExpression.Operator(rawValue: candidate)
            }
        }
        return nil
    }

    /// A double-quoted string (`\"` and `\\` inside), or a bare word up to a space or `)`.
    mutating func value() throws(ToolError) -> String? {
        guard !atEnd else { return nil }
        if text[position] == "\"" {
            let open = position
            position += 1
            var scalars = String.UnicodeScalarView()
            while !atEnd, text[position] != "\"" {
                if text[position] == "\\", position + 1 < text.count { position += 1 }
                scalars.append(text[position])
                position += 1
            }
            guard !atEnd else { throw error("this quote is never closed", at: open) }
            position += 1
            return String(scalars)
        }
        let start = position
        while !atEnd, !text[position].properties.isWhitespace, text[position] != ")", text[position] != "(" { position += 1 }
        return position > start ? String(String.UnicodeScalarView(text[start..<position])) : nil
    }
}
