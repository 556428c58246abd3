import FoundationEssentials
import CoreKit

/// A condition as `GET /conditions/:id` serves it: name, id, the condition, and how many
/// argument fields it takes (`arguments`, optional: absent means the highest it uses).
public struct ConditionRecord: Sendable, Equatable, Codable {
    public var name: String
    public var id: String
    public var condition: Condition
    /// How many arguments `eval` needs.
    public var argumentCount: Int

    enum CodingKeys: String, CodingKey {
        case name, id = "_id", condition, argumentCount = "arguments"
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
        let arguments = try container.decodeIfPresent(Int.self, forKey: .argumentCount)
        try self.init(name: name, id: id, condition: condition, arguments: arguments)
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

extension ConditionSummary: IdentifiedRecord {
    public var recordIDs: KeyValuePairs<String, String> { ["_id": id] }
}
