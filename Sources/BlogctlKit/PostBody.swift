#if canImport(Glibc)
import Glibc
#endif
import CoreKit

/// A post's body: bytes in memory (small ones, tests), or a cached copy on disk, already
/// checked, decompressed again piece by piece from its file as it is rendered: a body of
/// any size is never whole in memory, compressed or not.
public enum PostBody: Sendable {
    case bytes([UInt8])
    /// The gzip file `path` in the cache, of `size` bytes once decompressed.
    case file(path: String, size: Int)

    /// Bytes once decompressed.
    public var count: Int {
        switch self {
        case .bytes(let bytes): return bytes.count
        case .file(_, let size): return size
        }
    }

    /// The whole body in memory: for small bodies only (tests, a plain-text body).
    public func bytes() -> [UInt8] {
        switch self {
        case .bytes(let bytes): return bytes
        case .file:
            var whole: [UInt8] = []
            whole.reserveCapacity(count)
            stream { whole.append(contentsOf: $0) }
            return whole
        }
    }

    /// The body in pieces, in order. The file was checked when it was taken from the cache;
    /// a failure now (a disk changing under us) ends the stream early.
    public func stream(_ consume: (UnsafeBufferPointer<UInt8>) -> Void) {
        switch self {
        case .bytes(let bytes): bytes.withUnsafeBufferPointer(consume)
        case .file(let path, let size):
            let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
            guard fd >= 0 else { return }
            defer { close(fd) }
            _ = try? Gzip.decompress(fd: fd, limit: size, consume: consume)
        }
    }
}
