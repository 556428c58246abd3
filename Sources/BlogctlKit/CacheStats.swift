/// The totals `blogctl cache stats` prints: posts, their bytes decompressed and stored, the
/// folder's size on disk and the cap.
public struct CacheStats: Encodable, Sendable, Equatable {
    public let directory: String
    public let posts: Int
    public let bodyBytes: Int
    public let storedBytes: Int
    public let diskBytes: Int
    public let capacity: Int

    public init(of cache: PostCache) {
        let entries = cache.entries()
        directory = cache.directory
        posts = entries.count
        bodyBytes = entries.reduce(0) { $0 + $1.size }
        storedBytes = entries.reduce(0) { $0 + $1.storedSize }
        diskBytes = cache.totalSize()
        capacity = cache.capacity
    }

    /// Body bytes per stored byte, to two decimals; 0 for an empty cache.
    public var compressionRatio: Double {
        storedBytes > 0 ? (Double(bodyBytes) / Double(storedBytes) * 100).rounded() / 100 : 0
    }
}
