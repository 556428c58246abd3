/// Which case a result belongs to, as TAP and JUnit list every case.
public struct CaseIdentity: Sendable, Equatable {
    public let file: String
    public let line: Int
    /// The case's name, or its condition and arguments (`5b8f… "rollout.io"`).
    public let title: String

    public init(file: String, line: Int, name: String?, conditionKey: String, arguments: [String]) {
        self.file = file
        self.line = line
        self.title = name ?? ([conditionKey] + arguments.map(TextSyntax.literal)).joined(separator: " ")
    }
}

/// A case whose condition did not give the expected result, with the evaluation explained.
public struct TestFailure: Sendable, Equatable, Encodable {
    public let identity: CaseIdentity
    public let name: String?
    /// As the case named it: a server id or `=expression`.
    public let condition: String
    /// The server's name for the condition; empty for an expression.
    public let conditionName: String
    /// The condition in text syntax.
    public let text: String
    public let arguments: [String]
    public let expected: Bool
    public let explanation: Explanation

    public var actual: Bool { explanation.result ?? false }

    public init(identity: CaseIdentity, name: String?, condition: String, conditionName: String, text: String,
                arguments: [String], expected: Bool, explanation: Explanation) {
        self.identity = identity
        self.name = name
        self.condition = condition
        self.conditionName = conditionName
        self.text = text
        self.arguments = arguments
        self.expected = expected
        self.explanation = explanation
    }

    enum CodingKeys: String, CodingKey { case file, line, name, condition, conditionName, text, args, expected, actual, explain }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(identity.file, forKey: .file)
        try container.encode(identity.line, forKey: .line)
        try container.encode(name, forKey: .name)
        try container.encode(condition, forKey: .condition)
        try container.encode(conditionName, forKey: .conditionName)
        try container.encode(text, forKey: .text)
        try container.encode(arguments, forKey: .args)
        try container.encode(expected, forKey: .expected)
        try container.encode(actual, forKey: .actual)
        try container.encode(explanation, forKey: .explain)
    }

    /// The condition, arguments, expected and actual results: what the text report shows
    /// under a failing case, above its explain tree.
    public var detailLines: [String] {
        var lines: [String] = []
        if TestCase.isExpression(condition) {
            lines.append("condition: \(text)")
        } else {
            lines.append("condition: " + (conditionName.isEmpty ? condition : "\(condition) (\(conditionName))"))
            lines.append("as text:   \(text)")
        }
        lines.append("arguments: " + (arguments.isEmpty ? "(none)" : arguments.map(TextSyntax.literal).joined(separator: " ")))
        lines.append("expected:  \(expected)")
        lines.append("actual:    \(actual)")
        return lines
    }
}
