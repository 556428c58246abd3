/// `or(c1, c2, …)`: some condition holds; stops at the first that does.
public enum Or: LogicalOperator {
    public static let name = "or"
    public static let summary = "some condition holds (stops at the first true)"
    public static let arity = Arity.atLeast(1)
    public static func evaluate(count: Int, _ operand: (Int) -> Bool) -> Bool {
        for index in 0..<count where operand(index) { return true }
        return false
    }
}
