import FoundationEssentials
import CoreKit

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

/// The JSON wire format of conditions. Both server versions decode, in any mix:
/// arguments as `{"type":"argument","argumentNumber":N}` or `{"type":"arg","value":N}`,
/// strings as `{"type":"string","value":"…"}` or `{"type":"string","data":"…"}`.
/// Encoding writes the normalised form: `argument`/`argumentNumber` and `string`/`value`.
extension Condition: Codable {
    public init(from decoder: any Decoder) throws {
        let path = JSONCoding.pathString(decoder.codingPath)
        // Each level adds two keys to the path (`args`, `[i]`).
        guard decoder.codingPath.count <= 2 * Condition.maximumDepth else {
            throw ConditionError(path: path, problem: "nested deeper than \(Condition.maximumDepth) levels")
        }
        guard let container = try? decoder.container(keyedBy: WireKey.self) else {
            throw ConditionError(path: path, problem: "expected a condition object {\"op\": …, \"args\": […]}, found \(WireKey.kind(of: decoder))")
        }
        guard container.contains(.op) else { throw ConditionError(path: Condition.join(path, "op"), problem: "missing") }
        let op: String
        do { op = try container.decode(String.self, forKey: .op) } catch {
            throw ConditionError(path: Condition.join(path, "op"), problem: "expected an operator name string")
        }
        guard container.contains(.args) else { throw ConditionError(path: Condition.join(path, "args"), problem: "missing") }
        guard var list = try? container.nestedUnkeyedContainer(forKey: .args) else {
            throw ConditionError(path: Condition.join(path, "args"), problem: "expected an array of operands")
        }
        var args: [Operand] = []
        while !list.isAtEnd {
            args.append(try list.decode(WireOperand.self).operand)
        }
        try self.init(op: op, args: args, path: path)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: WireKey.self)
        try container.encode(op, forKey: .op)
        var list = container.nestedUnkeyedContainer(forKey: .args)
        for operand in args { try list.encode(WireOperand(operand: operand)) }
    }
}

/// One operand on the wire: a nested condition (it has `op`), or a typed value.
struct WireOperand: Codable {
    let operand: Operand

    init(operand: Operand) { self.operand = operand }

    init(from decoder: any Decoder) throws {
        let path = JSONCoding.pathString(decoder.codingPath)
        guard let container = try? decoder.container(keyedBy: WireKey.self) else {
            throw ConditionError(path: path, problem: "expected a condition, string or argument object, found \(WireKey.kind(of: decoder))")
        }
        if container.contains(.op) {
            operand = .condition(try Condition(from: decoder))
            return
        }
        guard let type = try? container.decode(String.self, forKey: .type) else {
            throw ConditionError(path: Condition.join(path, "type"),
                                 problem: container.contains(.type) ? "expected a string" : "missing (an operand needs \"op\" or \"type\")")
        }
        switch type {
        case "argument", "arg":
            let key: WireKey = type == "argument" ? .argumentNumber : .value
            let number: Int
            do { number = try container.decode(Int.self, forKey: key) } catch {
                let problem = container.contains(key) ? "expected a whole number" : "missing"
                throw ConditionError(path: Condition.join(path, key.stringValue), problem: problem)
            }
            guard (1...Condition.maximumArgument).contains(number) else {
                throw ConditionError(path: Condition.join(path, key.stringValue),
                                     problem: "argument numbers run from 1 to \(Condition.maximumArgument), found \(number)")
            }
            operand = .argument(number)
        case "string":
            let key: WireKey = container.contains(.value) ? .value : .data
            do { operand = .string(try container.decode(String.self, forKey: key)) } catch {
                let problem = container.contains(key) ? "expected a string" : "missing (a string needs \"value\" or \"data\")"
                throw ConditionError(path: Condition.join(path, container.contains(key) ? key.stringValue : "value"), problem: problem)
            }
        default:
            throw ConditionError(path: Condition.join(path, "type"),
                                 problem: "unknown operand type \"\(Condition.shown(type))\" (expected \"string\", \"argument\" or \"arg\")")
        }
    }

    func encode(to encoder: any Encoder) throws {
        switch operand {
        case .condition(let condition):
            try condition.encode(to: encoder)
        case .string(let text):
            var container = encoder.container(keyedBy: WireKey.self)
            try container.encode("string", forKey: .type)
            try container.encode(text, forKey: .value)
        case .argument(let number):
            var container = encoder.container(keyedBy: WireKey.self)
            try container.encode("argument", forKey: .type)
            try container.encode(number, forKey: .argumentNumber)
        }
    }
}

enum WireKey: String, CodingKey {
    case op, args, type, value, data, argumentNumber

    /// What a non-object JSON value is, for a message.
    static func kind(of decoder: any Decoder) -> String {
        if (try? decoder.unkeyedContainer()) != nil { return "an array" }
        guard let single = try? decoder.singleValueContainer() else { return "something else" }
        if single.decodeNil() { return "null" }
        if (try? single.decode(String.self)) != nil { return "a string" }
        if (try? single.decode(Bool.self)) != nil { return "a boolean" }
        if (try? single.decode(Double.self)) != nil { return "a number" }
        return "something else"
    }
}
