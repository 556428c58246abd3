/// The APIs mockd serves, loaded from the data folder.
public enum MockAPIs {
    public static func load(_ configuration: MockdConfiguration) throws -> [any MockAPI] {
        []
    }
}
