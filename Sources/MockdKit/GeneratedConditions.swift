import ToolboxKit

/// `mockd --conditions N`: N more condition records for load tests and benchmarks, the same
/// for the same seed. Every operator appears (the value operators in turn, and `and`, `or`
/// and `not` around them), and record i takes 1 + i mod 3 arguments, so 1 to 3.
enum GeneratedConditions {
    static let valueOperators = ["eq", "ne", "containsString", "startsWith", "endsWith"]
    /// Short pieces, so that the conditions hold for some arguments and not for others.
    static let words = ["ro", "rollout.io", "io", "a", "robot", ".io", "x"]

    struct Record: Encodable {
        let _id: String
        let name: String
        let condition: Node
    }

    indirect enum Node: Encodable {
        case operation(String, [Node])
        case argument(Int)
        case string(String)

        enum Keys: String, CodingKey { case op, args, type, argumentNumber, value }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            switch self {
            case .operation(let op, let args):
                try container.encode(op, forKey: .op)
                try container.encode(args, forKey: .args)
            case .argument(let number):
                try container.encode("argument", forKey: .type)
                try container.encode(number, forKey: .argumentNumber)
            case .string(let value):
                try container.encode("string", forKey: .type)
                try container.encode(value, forKey: .value)
            }
        }
    }

    /// The id of generated record `index` (0-based): 24 hex digits, as the server's ids are.
    static func id(_ index: Int) -> String {
        let hex = String(index + 1, radix: 16)
        return "7e57" + String(repeating: "0", count: max(0, 20 - hex.count)) + hex
    }

    static func records(count: Int, seed: UInt64) -> [Record] {
        var generator = SeededGenerator(seed: seed)
        return (0..<max(0, count)).map { index in
            let arguments = 1 + index % 3
            func leaf(_ turn: Int, argument: Int) -> Node {
                let word = words[Int(generator.next() % UInt64(words.count))]
                return .operation(valueOperators[(index + turn) % valueOperators.count], [.argument(argument), .string(word)])
            }
            // The first leaf names the last argument, so the record takes exactly `arguments`.
            let first = leaf(0, argument: arguments)
            let second = leaf(1, argument: 1 + Int(generator.next() % UInt64(arguments)))
            let condition: Node
            switch index % 4 {
            case 0: condition = first
            case 1: condition = .operation("and", [first, second])
            case 2: condition = .operation("or", [first, second])
            default: condition = .operation("not", [first])
            }
            return Record(_id: id(index), name: "Generated \(index + 1)", condition: condition)
        }
    }
}
