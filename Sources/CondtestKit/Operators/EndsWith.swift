/// `endsWith(a, b)`: a ends with b.
public enum EndsWith: ValueOperator {
    public static let name = "endsWith"
    public static let summary = "the first string ends with the second"
    public static func holds(_ left: Text, _ right: Text) -> Bool {
        right.count <= left.count && ByteSearch.equal(Text(rebasing: left[(left.count - right.count)...]), right)
    }
}
