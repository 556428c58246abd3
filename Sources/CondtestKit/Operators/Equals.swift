/// `eq(a, b)`: the two strings are identical.
public enum Equals: ValueOperator {
    public static let name = "eq"
    public static let summary = "the first string equals the second"
    public static func holds(_ left: Text, _ right: Text) -> Bool { ByteSearch.equal(left, right) }
}
