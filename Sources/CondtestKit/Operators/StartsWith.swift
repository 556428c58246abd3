/// `startsWith(a, b)`: a begins with b.
public enum StartsWith: ValueOperator {
    public static let name = "startsWith"
    public static let summary = "the first string starts with the second"
    public static func holds(_ left: Text, _ right: Text) -> Bool {
        right.count <= left.count && ByteSearch.equal(Text(rebasing: left[..<right.count]), right)
    }
}
