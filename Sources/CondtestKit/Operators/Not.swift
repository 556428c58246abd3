/// `not(c)`: the condition does not hold.
public enum Not: LogicalOperator {
    public static let name = "not"
    public static let summary = "the condition does not hold"
    public static let arity = Arity.exactly(1)
    public static func evaluate(count: Int, _ operand: (Int) -> Bool) -> Bool { !operand(0) }
}
