import FoundationEssentials
import CoreKit

/// One case of a `condtest test` file: a condition, its arguments and the expected result.
public struct TestCase: Sendable, Equatable {
    /// The condition as the case names it: a server id, `=` and a text expression, or (from
    /// a JSON Lines case) ConditionData, keyed by its text form. Cases with equal keys share
    /// one condition, fetched or parsed once.
    public var conditionKey: String
    /// A JSON Lines case's inline ConditionData, already validated.
    public var inlineCondition: Condition?
    public var arguments: [String]
    public var expect: Bool
    public var name: String?

    public init(conditionKey: String, inlineCondition: Condition? = nil, arguments: [String], expect: Bool, name: String? = nil) {
        self.conditionKey = conditionKey
        self.inlineCondition = inlineCondition
        self.arguments = arguments
        self.expect = expect
        self.name = name
    }

    /// True when the key is a text expression (`=…`) rather than a server id.
    public static func isExpression(_ key: String) -> Bool { key.utf8.first == UInt8(ascii: "=") }
}

/// A malformed line of a case file, with where: the line and the 1-based column (in bytes).
public struct CaseFileError: Error, Sendable, Equatable, CustomStringConvertible {
    public let line: Int
    public let column: Int
    public let problem: String

    public var description: String { "\(line):\(column): \(problem)" }

    /// The error as the tool reports it (65), prefixed by the file's name.
    public func toolError(file: String) -> ToolError { .badData("\(file):\(description)") }
}
