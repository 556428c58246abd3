/// A byte view of one operand's UTF-8 text. Comparisons are exact: byte by byte on valid
/// UTF-8 is Unicode scalar by scalar, with no case folding and no normalisation.
public typealias Text = UnsafeBufferPointer<UInt8>

/// What an operator's operands are.
public enum OperandKind: String, Sendable {
    /// Nested conditions (`and`, `or`, `not`).
    case conditions
    /// Strings: values or arguments (`eq`, `containsString`, …).
    case values
}

/// How many operands an operator takes.
public struct Arity: Sendable, Equatable, CustomStringConvertible {
    public let minimum: Int
    public let maximum: Int?

    public static func exactly(_ count: Int) -> Arity { Arity(minimum: count, maximum: count) }
    public static func atLeast(_ count: Int) -> Arity { Arity(minimum: count, maximum: nil) }

    public func allows(_ count: Int) -> Bool { count >= minimum && count <= (maximum ?? Int.max) }

    public var description: String {
        if maximum == minimum { return "\(minimum)" }
        return maximum.map { "\(minimum)-\($0)" } ?? "\(minimum)+"
    }
}

/// An operator over two string operands. Adding one is one type and one line in
/// `OperatorRegistry.standard`.
public protocol ValueOperator: Sendable {
    static var name: String { get }
    static var summary: String { get }
    /// Whether the relation holds between the two operands' UTF-8 bytes.
    static func holds(_ left: Text, _ right: Text) -> Bool
}

/// An operator over nested conditions. `evaluate` asks for operand `i`'s result through
/// `operand(i)` and asks only for those it needs, so short-circuiting is the operator's own
/// rule and `explain` sees exactly which operands were skipped.
public protocol LogicalOperator: Sendable {
    static var name: String { get }
    static var summary: String { get }
    static var arity: Arity { get }
    static func evaluate(count: Int, _ operand: (Int) -> Bool) -> Bool
}
