import ToolboxKit

/// `condtest eval --all`: every condition the server lists, evaluated with the same
/// arguments. Conditions are fetched `jobs` at a time; one that cannot be loaded, or that
/// needs more arguments than given, is reported on its own line and stops none of the others.
public enum ConditionSweep {
    /// One condition's outcome: `value`, or the `error` that kept it from being evaluated.
    public struct Outcome: Sendable, Equatable, Encodable {
        public let id: String
        public let name: String
        public let value: Bool?
        public let error: ToolError?

        public init(id: String, name: String, value: Bool?, error: ToolError?) {
            self.id = id
            self.name = name
            self.value = value
            self.error = error
        }

        enum CodingKeys: String, CodingKey { case id, name, result, error }

        /// `{"id", "name", "result": true|false|null, "error": null|"message"}`.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(name, forKey: .name)
            try container.encode(value, forKey: .result)
            try container.encode(error?.message, forKey: .error)
        }
    }

    /// Outcomes in the order the server lists the conditions. `progress` gets (done, total).
    public static func run(client: APIClient, arguments: [String], jobs: Int,
                           warn: (String) -> Void = { _ in },
                           progress: @escaping @Sendable (Int, Int) -> Void = { _, _ in }) async throws(ToolError) -> [Outcome] {
        let summaries = try await ConditionLoader.list(client: client, warn: warn)
        return await TaskWindow.map(summaries, width: jobs, progress: progress) { summary in
            await evaluate(summary, arguments: arguments, client: client)
        }
    }

    static func evaluate(_ summary: ConditionSummary, arguments: [String], client: APIClient) async -> Outcome {
        do {
            let record = try await ConditionLoader.load(.server(id: summary.id), client: client)
            if let problem = ArgumentCheck.problem(wanted: record.argumentCount, given: arguments.count, extrasIgnored: true) {
                throw ToolError.usage(problem)
            }
            let value = Evaluator(record.condition, argumentCount: record.argumentCount)
                .evaluate(Array(arguments.prefix(record.argumentCount)))
            return Outcome(id: summary.id, name: summary.name, value: value, error: nil)
        } catch let error as ToolError {
            return Outcome(id: summary.id, name: summary.name, value: nil, error: error)
        } catch {
            return Outcome(id: summary.id, name: summary.name, value: nil, error: .bug(String(describing: error)))
        }
    }

    /// 0 when every condition was evaluated; 65 when one was ill-formed or needed more
    /// arguments; otherwise the status of the first error (the server failing, say).
    public static func exitStatus(_ outcomes: [Outcome]) -> ExitStatus {
        let errors = outcomes.compactMap(\.error)
        if errors.isEmpty { return .success }
        if errors.contains(where: { $0.exitStatus == .dataError || $0.exitStatus == .usage }) { return .dataError }
        return errors[0].exitStatus
    }
}
