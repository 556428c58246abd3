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
        // A regular file's size is known: one allocation of the right size, not a doubling series.
        var info = stat()
        if fstat(fd, &info) == 0, info.st_size > 0, Int(info.st_size) <= limit { bytes.reserveCapacity(Int(info.st_size) + 1) }
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

extension LocalFile {
    /// Writes `bytes` to `path` so that a reader sees the old file or the new one, never a
    /// part: a temporary file in the same folder (`.NAME.tmp.PID`), fsync, then rename.
    public static func writeAtomically(_ path: String, _ bytes: [UInt8], mode: mode_t = 0o644) throws(ToolError) {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let temporary = folder + "/" + temporaryPrefix(for: name) + String(getpid())
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
        guard fd >= 0 else { throw .io(path: path, reason: String(cString: strerror(errno))) }
        var failure: Int32 = 0
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                offset += written
            }
        }
        if failure == 0 && fsync(fd) != 0 { failure = errno }
        close(fd)
        if failure == 0 && rename(temporary, path) != 0 { failure = errno }
        if failure != 0 {
            unlink(temporary)
            throw .io(path: path, reason: String(cString: strerror(failure)))
        }
    }

    /// `.NAME.tmp.`: a file starting so, followed by a dead process's id, is a leftover.
    public static func temporaryPrefix(for name: String) -> String { "." + name + ".tmp." }

    /// Creates `path` and its parents, as `mkdir -p` does.
    public static func makeDirectories(_ path: String, mode: mode_t = 0o755) throws(ToolError) {
        var current = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            current += "/" + component
            if mkdir(current, mode) != 0 && errno != EEXIST {
                throw .io(path: current, reason: String(cString: strerror(errno)))
            }
        }
    }
}
