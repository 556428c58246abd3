/// `ne(a, b)`: the two strings differ.
public enum NotEquals: ValueOperator {
    public static let name = "ne"
    public static let summary = "the first string differs from the second"
    public static func holds(_ left: Text, _ right: Text) -> Bool { !ByteSearch.equal(left, right) }
}
