#if canImport(Glibc)
import Glibc
#endif
import CoreKit
import FoundationEssentials
import NIOCore

/// A response body written, as it arrived, to a temporary file no one can name (made 0600 in
/// `$TMPDIR`, unlinked at once), not held in memory: `send`'s `spillFrom`. Several big feeds
/// refreshed at once each hold a file, not 64 MiB. Read back a piece at a time; closed when
/// the last response that holds it goes.
public final class SpilledBody: Sendable {
    public let fd: Int32
    /// The body's bytes.
    public let count: Int

    init(fd: Int32, count: Int) {
        self.fd = fd
        self.count = count
    }

    deinit { close(fd) }

    /// A new temporary file for a body, open for reading and writing, or why there is none.
    static func create(environment: [String: String] = Environment.current) throws(ToolError) -> Int32 {
        let folder = environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array((folder + "/toolbox-body-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw .io(path: folder, reason: "no temporary file for a large body: " + String(cString: strerror(errno))) }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        return fd
    }

    /// Appends `buffer`'s readable bytes to the file `fd`.
    static func append(_ buffer: ByteBuffer, to fd: Int32) throws(ToolError) {
        let failed: Int32 = buffer.withUnsafeReadableBytes { bytes in
            var done = 0
            while done < bytes.count {
                let wrote = write(fd, bytes.baseAddress! + done, bytes.count - done)
                if wrote < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                done += wrote
            }
            return 0
        }
        if failed != 0 { throw .io(path: "a temporary file", reason: "writing a large body: " + String(cString: strerror(failed))) }
    }

    /// The body from its start, `size` bytes at a time (the last piece shorter).
    public func pieces(size: Int = 64 << 10, _ body: (UnsafeBufferPointer<UInt8>) -> Void) throws(ToolError) {
        var buffer = [UInt8](repeating: 0, count: size)
        var offset = 0
        while offset < count {
            let read = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, min(size, count - offset), off_t(offset)) }
            if read < 0, errno == EINTR { continue }
            guard read > 0 else { throw .io(path: "a temporary file", reason: "reading a large body back: " + String(cString: strerror(errno))) }
            buffer.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[..<read])) }
            offset += read
        }
    }

    /// The first `count` bytes (fewer when the body is shorter).
    public func head(_ count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: min(count, self.count))
        let read = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        return Array(bytes.prefix(max(read, 0)))
    }

    /// Positions the file at the body's start, for a reader that reads it with `read(2)`.
    public func rewind() { lseek(fd, 0, SEEK_SET) }
}
