import FoundationEssentials
import ToolboxKit

/// A metadata object with one more key beside its own (`group` in `list`, `imageURL` in `show`).
public struct AnnotatedMetadata: Encodable {
    public let metadata: PostMetadata
    public let key: String
    public let value: String?
    /// `"read": true|false` too, in `list` (nil leaves it out).
    public let read: Bool?

    public init(_ metadata: PostMetadata, key: String, value: String?, read: Bool? = nil) {
        self.metadata = metadata
        self.key = key
        self.value = value
        self.read = read
    }

    struct Key: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    public func encode(to encoder: any Encoder) throws {
        try metadata.encode(to: encoder)
        var container = encoder.container(keyedBy: Key.self)
        if let value { try container.encode(value, forKey: Key(stringValue: key)) }
        if let read { try container.encode(read, forKey: Key(stringValue: "read")) }
    }
}
