import FoundationEssentials

/// A device object as a client or the seed file wrote it: which fields are present, and
/// whether each is a string, null or something else. The devices API needs exactly this to
/// refuse unknown fields and to tell an absent date from a null one.
struct DeviceFields: Decodable, Sendable {
    enum Value: Equatable, Sendable {
        case string(String)
        case null
        /// A number, boolean, array or object: never valid for a device field.
        case other
    }

    let values: [String: Value]

    func string(_ key: String) -> String? {
        if case .string(let text) = values[key] { return text }
        return nil
    }

    private struct AnyKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: AnyKey.self)
        var values: [String: Value] = [:]
        for key in container.allKeys {
            if try container.decodeNil(forKey: key) {
                values[key.stringValue] = .null
            } else if let text = try? container.decode(String.self, forKey: key) {
                values[key.stringValue] = .string(text)
            } else {
                values[key.stringValue] = .other
            }
        }
        self.values = values
    }
}
