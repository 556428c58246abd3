/// `and(c1, c2, …)`: every condition holds; stops at the first that does not.
public enum And: LogicalOperator {
    public static let name = "and"
    public static let summary = "every condition holds (stops at the first false)"
    public static let arity = Arity.atLeast(1)
    public static func evaluate(count: Int, _ operand: (Int) -> Bool) -> Bool {
        for index in 0..<count where !operand(index) { return false }
        return true
    }
}
