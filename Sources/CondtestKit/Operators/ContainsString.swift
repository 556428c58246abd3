/// `containsString(a, b)`: b occurs in a (the empty string occurs everywhere).
public enum ContainsString: ValueOperator {
    public static let name = "containsString"
    public static let summary = "the first string contains the second"
    public static func holds(_ left: Text, _ right: Text) -> Bool { ByteSearch.contains(left, right) }
}
