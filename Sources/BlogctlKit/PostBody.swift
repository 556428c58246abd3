/// A post's body: bytes in memory (just downloaded), or a cached copy, already checked, that
/// is decompressed again piece by piece as it is rendered, so a large post is never whole in memory.
public enum PostBody: Sendable {
    case bytes([UInt8])
    case cached(compressed: [UInt8], size: Int)

    /// Bytes once decompressed.
    public var count: Int {
        switch self {
        case .bytes(let bytes): return bytes.count
        case .cached(_, let size): return size
        }
    }

    /// The whole body in memory.
    public func bytes() -> [UInt8] {
        switch self {
        case .bytes(let bytes): return bytes
        case .cached:
            var whole: [UInt8] = []
            whole.reserveCapacity(count)
            stream { whole.append(contentsOf: $0) }
            return whole
        }
    }

    /// The body in pieces, in order.
    public func stream(_ consume: (UnsafeBufferPointer<UInt8>) -> Void) {
        switch self {
        case .bytes(let bytes): bytes.withUnsafeBufferPointer(consume)
        case .cached(let compressed, let size):
            // Checked when it was taken from the cache; a failure now would be a disk changing under us.
            _ = try? Gzip.decompress(compressed, limit: size, consume: consume)
        }
    }
}
