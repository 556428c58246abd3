#if canImport(Glibc)
import Glibc
#endif

/// Whole small files read with a size bound, so a huge or endless input (a FIFO, /dev/zero)
/// is an error rather than unbounded memory.
public enum LocalFile {
    /// The bytes of `path`, or of stdin for `-`; `badData` past `limit` bytes.
    public static func read(_ path: String, limit: Int) throws(ToolError) -> [UInt8] {
        let fd = path == "-" ? 0 : open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .io(path: path, reason: String(cString: strerror(errno))) }
        defer { if fd != 0 { close(fd) } }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .io(path: path, reason: String(cString: strerror(errno)))
            }
            if count == 0 { return bytes }
            bytes += chunk[0..<count]
            guard bytes.count <= limit else { throw .badData("\(path): larger than \(limit >> 20) MiB") }
        }
    }
}
