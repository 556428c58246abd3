import FoundationEssentials
import ToolboxKit

/// A metadata object with one more key beside its own (`group` in `list`, `imageURL` in `show`).
public struct AnnotatedMetadata: Encodable {
    public let metadata: PostMetadata
    public let key: String
    public let value: String?

    public init(_ metadata: PostMetadata, key: String, value: String?) {
        self.metadata = metadata
        self.key = key
        self.value = value
    }

    struct Key: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    public func encode(to encoder: any Encoder) throws {
        try metadata.encode(to: encoder)
        if let value {
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(value, forKey: Key(stringValue: key))
        }
    }
}
