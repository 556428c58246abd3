import ArgumentParser
import CondtestKit
import ToolboxKit

/// Where `show`, `eval` and `explain` take their condition from: a server id (the first
/// positional word), `-f FILE` or `-e EXPR`.
struct ConditionOptions: ParsableArguments {
    @Option(name: [.short, .customLong("file")],
            help: ArgumentHelp("Read the condition from a JSON file (a full record or bare ConditionData); - is stdin.",
                               valueName: "file"), completion: .file())
    var file: String?

    @Option(name: [.short, .customLong("expression")],
            help: ArgumentHelp("Use a condition in text syntax.", valueName: "expr"))
    var expression: String?

    func validate() throws {
        if file != nil && expression != nil { throw ValidationError("give -f or -e, not both") }
    }

    /// The source, and the positional words left for arguments.
    func source(_ words: [String]) throws -> (ConditionSource, [String]) {
        if let file { return (.file(path: file), words) }
        if let expression { return (.expression(expression), words) }
        guard let id = words.first else {
            throw ValidationError("give a condition id, -f FILE or -e EXPR")
        }
        return (.server(id: id), Array(words.dropFirst()))
    }

    /// Loads the condition, with a client only when the source is the server.
    func load(_ source: ConditionSource, _ common: CommonOptions) async throws -> ConditionRecord {
        if case .server = source {
            return try await common.withClient(tool: .condtest) { client in
                try await ConditionLoader.load(source, client: client)
            }
        }
        return try await ConditionLoader.load(source, client: nil)
    }
}

extension ConditionRecord {
    /// The arguments, checked against what the condition takes.
    func checkedArguments(_ words: [String]) throws(ToolError) -> [String] {
        if let problem = ArgumentCheck.problem(wanted: argumentCount, given: words.count) { throw .usage(problem) }
        return words
    }
}
