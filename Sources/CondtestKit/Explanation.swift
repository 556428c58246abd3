/// Why a condition is true or false: the evaluation as a tree, every node with its operands'
/// actual values and its result, and the operands a short-circuit skipped.
public indirect enum Explanation: Sendable, Equatable, Encodable {
    /// A value operator: its operands as written and as evaluated.
    case comparison(op: String, operands: [ExplainedOperand], result: Bool)
    /// A logical operator and what became of each operand.
    case logical(op: String, children: [Explanation], result: Bool)
    /// An operand the short-circuit did not evaluate.
    case skipped(Condition)

    public var result: Bool? {
        switch self {
        case .comparison(_, _, let result), .logical(_, _, let result): return result
        case .skipped: return nil
        }
    }

    /// Explains `condition` with `arguments` (arg1 first), using the operators' own rules.
    public static func of(_ condition: Condition, arguments: [String], registry: OperatorRegistry = .standard) -> Explanation {
        let entry = registry.entry(condition.op)!
        switch entry.implementation {
        case .conditions(let op):
            var children: [Explanation] = condition.args.map {
                if case .condition(let nested) = $0 { return .skipped(nested) }
                return .skipped(condition)
            }
            let result = op.evaluate(count: condition.args.count) { index in
                guard case .condition(let nested) = condition.args[index] else { return false }
                let child = Explanation.of(nested, arguments: arguments, registry: registry)
                children[index] = child
                return child.result ?? false
            }
            return .logical(op: condition.op, children: children, result: result)
        case .values(let op):
            let operands = condition.args.map { operand -> ExplainedOperand in
                switch operand {
                case .argument(let number): return ExplainedOperand(operand: operand, value: arguments[number - 1])
                case .string(let value): return ExplainedOperand(operand: operand, value: value)
                case .condition: return ExplainedOperand(operand: operand, value: "")
                }
            }
            let result = ArgumentBytes(operands.map(\.value)).withTexts { op.holds($0[0], $0[1]) }
            return .comparison(op: condition.op, operands: operands, result: result)
        }
    }

    private enum CodingKeys: String, CodingKey { case op, result, operands, condition }

    /// `{"op": "and", "result": false, "operands": [...]}`; a skipped operand is
    /// `{"result": "skipped", "condition": "text syntax"}`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .comparison(let op, let operands, let result):
            try container.encode(op, forKey: .op)
            try container.encode(result, forKey: .result)
            try container.encode(operands, forKey: .operands)
        case .logical(let op, let children, let result):
            try container.encode(op, forKey: .op)
            try container.encode(result, forKey: .result)
            try container.encode(children, forKey: .operands)
        case .skipped(let condition):
            try container.encode("skipped", forKey: .result)
            try container.encode(TextSyntax.format(condition), forKey: .condition)
        }
    }

    /// The tree, two spaces a level: `and: false`, `  ne(arg1 = "x", "rollout.io"): true`,
    /// `  containsString(arg1, "ro"): skipped`. `paint` colours a result word.
    public func render(paint: (String, Bool?) -> String = { word, _ in word }) -> String {
        var lines: [String] = []
        render(level: 0, into: &lines, paint: paint)
        return lines.joined(separator: "\n") + "\n"
    }

    private func render(level: Int, into lines: inout [String], paint: (String, Bool?) -> String) {
        let indent = String(repeating: "  ", count: level)
        switch self {
        case .comparison(let op, let operands, let result):
            let shown = operands.map { $0.description }.joined(separator: ", ")
            lines.append("\(indent)\(op)(\(shown)): \(paint(result ? "true" : "false", result))")
        case .logical(let op, let children, let result):
            lines.append("\(indent)\(op): \(paint(result ? "true" : "false", result))")
            for child in children { child.render(level: level + 1, into: &lines, paint: paint) }
        case .skipped(let condition):
            lines.append("\(indent)\(TextSyntax.format(condition)): \(paint("skipped", nil))")
        }
    }
}

/// An operand as written and the string it stood for.
public struct ExplainedOperand: Sendable, Equatable, CustomStringConvertible, Encodable {
    public let operand: Operand
    public let value: String

    private enum CodingKeys: String, CodingKey { case argument, value }

    /// `{"value": "x"}`, with `"argument": 1` when it came from an argument.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        if case .argument(let number) = operand { try container.encode(number, forKey: .argument) }
        try container.encode(value, forKey: .value)
    }

    /// `"rollout.io"` for a value; `arg1 = "rollout.io"` for an argument.
    public var description: String {
        switch operand {
        case .argument(let number): return "arg\(number) = \(TextSyntax.literal(value))"
        default: return TextSyntax.literal(value)
        }
    }
}
