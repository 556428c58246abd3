/// What `passcode fetch` prints: one call's code and keypad setup.
public struct FetchResult: Encodable, Sendable, Equatable {
    public let code: String
    public let setup: [Int]

    public init(code: String, setup: [Int]) {
        self.code = code
        self.setup = setup
    }
}
