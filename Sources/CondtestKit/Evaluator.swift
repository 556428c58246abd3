/// A condition compiled once into a tree of closures over UTF-8 bytes, so that `eval
/// --batch` does no parsing, no allocation and no string conversion per line.
/// Semantics live only in the operator types; this file only wires them together.
public struct Evaluator: Sendable {
    /// `arguments[0]` is arg1.
    public typealias Program = @Sendable (UnsafeBufferPointer<Text>) -> Bool

    public let condition: Condition
    public let argumentCount: Int
    private let program: Program

    public init(_ condition: Condition, argumentCount: Int? = nil, registry: OperatorRegistry = .standard) {
        self.condition = condition
        self.argumentCount = max(argumentCount ?? 0, condition.highestArgument)
        var next = 0
        self.program = Self.compile(condition, registry: registry, outcomes: nil, next: &next)
    }

    /// An evaluator that also records, in `outcomes`, every result each operator node has
    /// had (nodes numbered in pre-order, as `TextSyntax.formatWithColumns` lists them).
    public init(_ condition: Condition, argumentCount: Int? = nil, registry: OperatorRegistry = .standard,
                recordingInto outcomes: NodeOutcomes) {
        self.condition = condition
        self.argumentCount = max(argumentCount ?? 0, condition.highestArgument)
        var next = 0
        self.program = Self.compile(condition, registry: registry, outcomes: outcomes, next: &next)
    }

    /// Evaluates with arguments as byte buffers; there must be at least `argumentCount`.
    @inline(__always)
    public func evaluate(_ arguments: UnsafeBufferPointer<Text>) -> Bool {
        precondition(arguments.count >= argumentCount, "too few arguments")
        return program(arguments)
    }

    /// Evaluates with string arguments.
    public func evaluate(_ arguments: [String]) -> Bool {
        ArgumentBytes(arguments).withTexts { evaluate($0) }
    }

    /// The program of `condition`, node number `next` in pre-order. With `outcomes`, each node
    /// also records its result, in the node's own closure: coverage costs a store, not a call.
    private static func compile(_ condition: Condition, registry: OperatorRegistry, outcomes: NodeOutcomes?,
                                next: inout Int) -> Program {
        // One test run owns the outcomes and evaluates on one thread (NodeOutcomes).
        nonisolated(unsafe) let seen = outcomes.map { $0.seen + next }
        next += 1
        // Validated conditions only name registered operators.
        let entry = registry.entry(condition.op)!
        switch entry.implementation {
        case .conditions(let op):
            var compiled: [Program] = []
            for operand in condition.args {
                guard case .condition(let nested) = operand else { compiled.append({ _ in false }); continue }
                compiled.append(compile(nested, registry: registry, outcomes: outcomes, next: &next))
            }
            let children = compiled
            let count = children.count
            return { arguments in record(seen, op.evaluate(count: count) { children[$0](arguments) }) }
        case .values(let op):
            switch (condition.args[0], condition.args[1]) {
            case (.argument(let a), .argument(let b)):
                return { arguments in record(seen, op.holds(arguments[a - 1], arguments[b - 1])) }
            case (.argument(let a), .string(let value)):
                let bytes = Array(value.utf8)
                return { arguments in record(seen, bytes.withUnsafeBufferPointer { op.holds(arguments[a - 1], $0) }) }
            case (.string(let value), .argument(let b)):
                let bytes = Array(value.utf8)
                return { arguments in record(seen, bytes.withUnsafeBufferPointer { op.holds($0, arguments[b - 1]) }) }
            case (.string(let left), .string(let right)):
                let result = Array(left.utf8).withUnsafeBufferPointer { l in
                    Array(right.utf8).withUnsafeBufferPointer { r in op.holds(l, r) }
                }
                return { _ in record(seen, result) }
            default:
                return { _ in false }
            }
        }
    }

    @inline(__always)
    private static func record(_ seen: UnsafeMutablePointer<UInt8>?, _ result: Bool) -> Bool {
        if let seen { seen.pointee |= result ? NodeOutcomes.sawTrue : NodeOutcomes.sawFalse }
        return result
    }
}

/// Owned UTF-8 copies of string arguments, lent out as `Text` buffers.
struct ArgumentBytes {
    let storage: [[UInt8]]

    init(_ arguments: [String]) { storage = arguments.map { Array($0.utf8) } }

    func withTexts<R>(_ body: (UnsafeBufferPointer<Text>) -> R) -> R {
        var texts: [Text] = []
        texts.reserveCapacity(storage.count)
        return withPointers(0, &texts, body)
    }

    /// Nests `withUnsafeBufferPointer` so every pointer stays valid during `body`.
    private func withPointers<R>(_ index: Int, _ texts: inout [Text], _ body: (UnsafeBufferPointer<Text>) -> R) -> R {
        guard index < storage.count else { return texts.withUnsafeBufferPointer(body) }
        return storage[index].withUnsafeBufferPointer { pointer in
            texts.append(pointer)
            return withPointers(index + 1, &texts, body)
        }
    }
}
