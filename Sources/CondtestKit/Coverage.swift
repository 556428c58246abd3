import CoreKit

/// The results each operator node of one condition has had over a test run: a byte per
/// node (pre-order), `sawTrue | sawFalse`. Written by an `Evaluator` built with
/// `recordingInto:`, on one thread: a test run owns it.
public final class NodeOutcomes: @unchecked Sendable {
    public static let sawTrue: UInt8 = 1
    public static let sawFalse: UInt8 = 2

    let seen: UnsafeMutablePointer<UInt8>
    public let count: Int

    public init(nodes count: Int) {
        self.count = count
        seen = .allocate(capacity: max(count, 1))
        seen.initialize(repeating: 0, count: max(count, 1))
    }

    deinit { seen.deallocate() }

    public subscript(node: Int) -> UInt8 { seen[node] }
}

extension Condition {
    /// The condition's operator nodes in pre-order: itself, then its operands' nodes.
    public var nodes: [Condition] {
        var result = [self]
        for case .condition(let nested) in args { result += nested.nodes }
        return result
    }
}

/// Which branches a table of cases never exercised: for each condition tested, the operator
/// nodes that were never true or never false, with where they start in the text form.
public struct CoverageReport: Sendable, Equatable, Encodable {
    public struct Node: Sendable, Equatable, Encodable {
        /// 1-based column of the node in `ConditionCoverage.text`.
        public let column: Int
        /// The node in text syntax.
        public let text: String
        /// The outcomes never seen: `["false"]`, `["true"]`, or both (never evaluated).
        public let missing: [String]
    }

    public struct ConditionCoverage: Sendable, Equatable, Encodable {
        /// As the cases named it: a server id or `=expression`.
        public let condition: String
        public let name: String
        public let text: String
        public let covered: Int
        public let total: Int
        public let uncovered: [Node]

        public init(condition: String, name: String, record: Condition, outcomes: NodeOutcomes) {
            self.condition = condition
            self.name = name
            let (text, columns) = TextSyntax.formatWithColumns(record)
            self.text = text
            let nodes = record.nodes
            var covered = 0
            var uncovered: [Node] = []
            for (index, node) in nodes.enumerated() {
                let seen = outcomes[index]
                var missing: [String] = []
                if seen & NodeOutcomes.sawTrue == 0 { missing.append("true") }
                if seen & NodeOutcomes.sawFalse == 0 { missing.append("false") }
                covered += 2 - missing.count
                if !missing.isEmpty {
                    uncovered.append(Node(column: columns[index], text: TextSyntax.format(node), missing: missing))
                }
            }
            self.covered = covered
            self.total = 2 * nodes.count
            self.uncovered = uncovered
        }
    }

    public let conditions: [ConditionCoverage]
    public var covered: Int { conditions.reduce(0) { $0 + $1.covered } }
    public var total: Int { conditions.reduce(0) { $0 + $1.total } }
    /// The share of node outcomes seen, in percent (100 when nothing was tested).
    public var percent: Double { total == 0 ? 100 : Double(covered) * 100 / Double(total) }

    public init(conditions: [ConditionCoverage]) { self.conditions = conditions }

    enum CodingKeys: String, CodingKey { case conditions, covered, total, percent }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(covered, forKey: .covered)
        try container.encode(total, forKey: .total)
        try container.encode((percent * 10).rounded() / 10, forKey: .percent)
        try container.encode(conditions, forKey: .conditions)
    }

    /// `coverage: 10 of 12 node outcomes (83.3%)`, then each condition with uncovered nodes:
    /// its outcomes and text form, and a line per node (`col 5  ne(arg1, "x")  never false`).
    public func render() -> String {
        var text = "coverage: \(covered) of \(total) node outcomes (\(Self.formatted(percent))%)\n"
        for condition in conditions where !condition.uncovered.isEmpty {
            let outcomes = "\(condition.covered) of \(condition.total) outcomes"
            if TestCase.isExpression(condition.condition) {
                text += "  \(condition.text): \(outcomes)\n"
            } else {
                let label = condition.name.isEmpty ? condition.condition : "\(condition.condition) (\(condition.name))"
                text += "  \(label): \(outcomes)\n    \(condition.text)\n"
            }
            for node in condition.uncovered {
                let never = node.missing.count == 2 ? "never evaluated" : "never \(node.missing[0])"
                let column = "col \(node.column)"
                text += "    \(TextWidth.pad(column, to: 8))\(node.text)  \(never)\n"
            }
        }
        return text
    }

    /// One decimal, cut rather than rounded up, so 99.96% is not shown as a full 100.0%.
    public static func formatted(_ percent: Double) -> String {
        let tenths = Int((percent * 10).rounded(.down))
        return "\(tenths / 10).\(tenths % 10)"
    }
}
