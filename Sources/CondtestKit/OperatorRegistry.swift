/// Every operator condtest knows, by name. Decoding and parsing validate against it, and
/// `condtest ops` prints it. To add an operator: write one type conforming to
/// `ValueOperator` or `LogicalOperator`, and list it in `standard`.
public struct OperatorRegistry: Sendable {
    public struct Entry: Sendable {
        public let name: String
        public let summary: String
        public let kind: OperandKind
        public let arity: Arity
        let implementation: Implementation
    }

    enum Implementation: Sendable {
        case values(any ValueOperator.Type)
        case conditions(any LogicalOperator.Type)
    }

    public static let standard = OperatorRegistry(
        values: [Equals.self, NotEquals.self, ContainsString.self, StartsWith.self, EndsWith.self],
        logical: [And.self, Or.self, Not.self])

    public let entries: [Entry]
    private let byName: [String: Entry]

    public init(values: [any ValueOperator.Type], logical: [any LogicalOperator.Type]) {
        var entries = values.map {
            Entry(name: $0.name, summary: $0.summary, kind: .values, arity: .exactly(2), implementation: .values($0))
        }
        entries += logical.map {
            Entry(name: $0.name, summary: $0.summary, kind: .conditions, arity: $0.arity, implementation: .conditions($0))
        }
        self.entries = entries
        self.byName = Dictionary(entries.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    public func entry(_ name: String) -> Entry? { byName[name] }

    /// The known name closest to a misspelt one, if it is close enough to be a likely typo.
    public func suggestion(for name: String) -> String? {
        let lower = name.lowercased()
        // A shortened name ("contains" for "containsString") is a likely slip too.
        if lower.count >= 3, let extended = entries.first(where: { $0.name.lowercased().hasPrefix(lower) }) {
            return extended.name
        }
        let scored = entries.map { ($0.name, EditDistance.between(lower, $0.name.lowercased())) }
        guard let best = scored.min(by: { $0.1 < $1.1 }) else { return nil }
        return best.1 <= max(1, min(3, name.count / 3)) ? best.0 : nil
    }
}

enum EditDistance {
    /// Levenshtein distance over characters.
    static func between(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = Array(repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
