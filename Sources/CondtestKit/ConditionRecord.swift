import FoundationEssentials
import ToolboxKit

/// A condition as `GET /conditions/:id` serves it: name, id, the condition, and how many
/// argument fields it takes (`arguments`, optional: absent means the highest it uses).
public struct ConditionRecord: Sendable, Equatable, Codable {
    public var name: String
    public var id: String
    public var condition: Condition
    /// How many arguments `eval` needs.
    public var argumentCount: Int

    enum CodingKeys: String, CodingKey {
        case name, id = "_id", condition, arguments
    }

    public init(name: String, id: String, condition: Condition, arguments: Int? = nil) throws(ConditionError) {
        self.name = name
        self.id = id
        self.condition = condition
        let highest = condition.highestArgument
        if let arguments {
            guard arguments >= highest, arguments <= Condition.maximumArgument else {
                throw ConditionError(path: "arguments",
                                     problem: "the condition uses arg\(highest), but \"arguments\" is \(arguments)")
            }
            self.argumentCount = arguments
        } else {
            self.argumentCount = highest
        }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let name = try container.decodeIfPresent(String.self, forKey: .name) ?? ""
        let id = try container.decodeIfPresent(String.self, forKey: .id) ?? ""
        let condition = try container.decode(Condition.self, forKey: .condition)
        let arguments = try container.decodeIfPresent(Int.self, forKey: .arguments)
        try self.init(name: name, id: id, condition: condition, arguments: arguments)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(id, forKey: .id)
        try container.encode(condition, forKey: .condition)
        try container.encode(argumentCount, forKey: .arguments)
    }
}

/// One entry of `GET /conditions`.
public struct ConditionSummary: Sendable, Equatable, Codable {
    public var name: String
    public var id: String

    enum CodingKeys: String, CodingKey { case name, id = "_id" }

    public init(name: String, id: String) {
        self.name = name
        self.id = id
    }
}

/// Decoding of condition JSON with every failure as a `ConditionError` naming the JSON path.
public enum ConditionJSON {
    /// A full record, or a bare ConditionData (then named by `fallbackName`).
    public static func decodeRecordOrCondition(_ data: Data, fallbackName: String) throws(ConditionError) -> ConditionRecord {
        let isRecord: Bool
        try precheck(data)
        do {
            isRecord = try JSONCoding.decodeThrowingUnderlying(Probe.self, from: data).hasCondition
        } catch {
            throw failure(error)
        }
        if isRecord { return try decode(ConditionRecord.self, from: data) }
        let condition = try decode(Condition.self, from: data)
        return try ConditionRecord(name: fallbackName, id: "", condition: condition)
    }

    public static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws(ConditionError) -> T {
        try precheck(data)
        do {
            return try JSONCoding.decodeThrowingUnderlying(type, from: data)
        } catch {
            throw failure(error)
        }
    }

    /// What the decoder would only call "not valid JSON": bad UTF-8, or nesting past the limit
    /// (each condition level is an object and an array; a record adds one more object).
    static func precheck(_ data: Data) throws(ConditionError) {
        guard String(validating: data, as: UTF8.self) != nil else { throw ConditionError.notUTF8 }
        if JSONCoding.nestingDepth(data) > 2 * Condition.maximumDepth + 2 {
            throw ConditionError(path: "", problem: "nested deeper than \(Condition.maximumDepth) levels")
        }
    }

    static func failure(_ error: any Error) -> ConditionError {
        switch error {
        case let error as ConditionError:
            return error
        case let error as DecodingError:
            let failure = JSONDecodeFailure(error)
            return ConditionError(path: failure.path, problem: failure.problem)
        case let failure as JSONDecodeFailure:
            return ConditionError(path: failure.path, problem: failure.problem)
        default:
            return ConditionError(path: "", problem: "not valid JSON")
        }
    }

    /// Whether a document is a full record (it has `condition`) or bare ConditionData.
    struct Probe: Decodable {
        let hasCondition: Bool
        init(from decoder: any Decoder) throws {
            guard let container = try? decoder.container(keyedBy: ConditionRecord.CodingKeys.self) else {
                throw ConditionError(path: "", problem: "expected a JSON object, found \(WireKey.kind(of: decoder))")
            }
            hasCondition = container.contains(.condition)
        }
    }
}
