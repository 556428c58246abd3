/// One operand of a condition: a nested condition, a string value, or an argument (`arg1`…).
public indirect enum Operand: Sendable, Equatable {
    case condition(Condition)
    case string(String)
    case argument(Int)
}

/// A validated condition: its operator is in the registry, with the right number and kind
/// of operands. An ill-formed one cannot be built, so evaluation never meets one.
public struct Condition: Sendable, Equatable {
    public let op: String
    public let args: [Operand]

    /// Deeper nesting than this is refused: it is no real condition, and recursion must stay bounded.
    public static let maximumDepth = 200
    /// Argument numbers start at 1 and stop here.
    public static let maximumArgument = 10_000

    /// Builds a condition, checking it against `registry`. `path` prefixes the problems'
    /// locations (`condition`, `condition.args[1]`).
    public init(op: String, args: [Operand], registry: OperatorRegistry = .standard, path: String = "") throws(ConditionError) {
        guard let entry = registry.entry(op) else {
            let hint = registry.suggestion(for: op).map { " (did you mean \"\($0)\"?)" } ?? ""
            throw ConditionError(path: Self.join(path, "op"), problem: "unknown operator \"\(Self.shown(op))\"\(hint)")
        }
        guard entry.arity.allows(args.count) else {
            let what = entry.kind == .conditions ? "condition" : "operand"
            let count: String
            if let maximum = entry.arity.maximum, maximum == entry.arity.minimum {
                count = "\(maximum) \(what)\(maximum == 1 ? "" : "s")"
            } else {
                count = "at least \(entry.arity.minimum) \(what)\(entry.arity.minimum == 1 ? "" : "s")"
            }
            throw ConditionError(path: Self.join(path, "args"), problem: "\"\(op)\" takes \(count), found \(args.count)")
        }
        for (index, operand) in args.enumerated() {
            let found: String?
            switch (entry.kind, operand) {
            case (.conditions, .condition), (.values, .string), (.values, .argument): found = nil
            case (.conditions, .string): found = "a string value"
            case (.conditions, .argument): found = "an argument"
            case (.values, .condition): found = "a condition"
            }
            if let found {
                let wanted = entry.kind == .conditions ? "conditions" : "strings and arguments"
                throw ConditionError(path: Self.join(path, "args[\(index)]"), problem: "\"\(op)\" takes \(wanted), found \(found)")
            }
        }
        self.op = op
        self.args = args
    }

    /// The highest argument number used anywhere in the condition (0 when none).
    public var highestArgument: Int {
        args.reduce(0) { highest, operand in
            switch operand {
            case .argument(let number): return max(highest, number)
            case .condition(let nested): return max(highest, nested.highestArgument)
            case .string: return highest
            }
        }
    }

    static func join(_ path: String, _ key: String) -> String { path.isEmpty ? key : path + "." + key }

    /// A name from input, made safe and short for a message.
    static func shown(_ text: String) -> String {
        let clean = TextSyntax.escapedBody(text)
        return clean.count > 40 ? String(clean.prefix(40)) + "…" : clean
    }
}

/// A malformed condition, with where it is: a JSON path (`condition.args[1].op`) or a
/// column of the text syntax.
public struct ConditionError: Error, Sendable, Equatable, CustomStringConvertible {
    public let path: String
    public let problem: String

    public var description: String { path.isEmpty ? problem : "\(path): \(problem)" }
}

extension ConditionError {
    /// What `ConditionJSON` reports for bytes that are not JSON at all.
    public static let notJSON = ConditionError(path: "", problem: "not valid JSON")
    /// Bytes that are not UTF-8 cannot be JSON either.
    public static let notUTF8 = ConditionError(path: "", problem: "not valid JSON (not UTF-8)")

    /// True when the bytes were not JSON at all, rather than JSON describing a bad condition.
    public var isMalformedJSON: Bool { self == .notJSON || self == .notUTF8 }
}
