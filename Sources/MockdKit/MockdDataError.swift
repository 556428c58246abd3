/// A file under `--data` that mockd cannot serve.
public struct MockdDataError: Error, CustomStringConvertible {
    public let path: String
    public let problem: String
    public var description: String { "\(path): \(problem)" }
}
