import ToolboxKit

/// One cached post as `blogctl cache list --json` prints it.
public struct CacheListing: Encodable, Sendable {
    public let id: String
    public let postId: String
    public let title: String
    public let etag: String?
    public let size: Int
    public let storedSize: Int
    public let lastUsed: String

    public init(_ entry: CacheEntry) {
        id = entry.metadata.id
        postId = entry.metadata.postId
        title = entry.metadata.title
        etag = entry.etag
        size = entry.size
        storedSize = entry.storedSize
        lastUsed = ISO8601.format(entry.lastUsed ?? entry.stored)
    }
}
