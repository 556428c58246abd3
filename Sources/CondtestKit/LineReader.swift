#if canImport(Glibc)
import Glibc
#endif
import CoreKit

/// Lines of a file descriptor, read in large blocks and lent out in place: no copy and no
/// allocation per line, so memory stays flat however long the input is. A line is lent
/// without its newline (and without the CR of a CRLF) and is valid until the next call.
/// Used by `eval --batch` and `condtest test`.
public final class LineReader {
    /// The longest line accepted; a longer one is an error rather than unbounded memory.
    public static let maximumLineLength = 64 << 20

    private let fd: Int32
    private let name: String
    private var capacity: Int
    private var buffer: UnsafeMutablePointer<UInt8>
    private var start = 0
    private var end = 0
    private var atEnd = false
    /// The number of the line last returned (1 for the first).
    public private(set) var lineNumber = 0

    /// `name` is how errors call the input ("standard input", a path).
    public init(fd: Int32, name: String, blockSize: Int = 1 << 20) {
        self.fd = fd
        self.name = name
        self.capacity = blockSize
        self.buffer = .allocate(capacity: blockSize)
    }

    deinit { buffer.deallocate() }

    /// The next line, or nil at the end of the input. A last line without a newline counts.
    @inline(__always)
    public func next() throws(ToolError) -> Text? {
        while true {
            if start < end, let newline = memchr(buffer + start, 0x0A, end - start) {
                let lineEnd = buffer.distance(to: newline.assumingMemoryBound(to: UInt8.self))
                defer { start = lineEnd + 1 }
                return line(from: start, to: lineEnd)
            }
            if atEnd {
                guard start < end else { return nil }
                defer { start = end }
                return line(from: start, to: end)
            }
            try fill()
        }
    }

    @inline(__always)
    private func line(from: Int, to: Int) -> Text {
        lineNumber += 1
        var to = to
        if to > from, buffer[to - 1] == 0x0D { to -= 1 }  // CRLF input
        return Text(start: buffer + from, count: to - from)
    }

    /// Keeps the partial line at the front, grows the buffer when the line fills it, reads more.
    private func fill() throws(ToolError) {
        if start > 0 {
            if end > start { memmove(buffer, buffer + start, end - start) }
            end -= start
            start = 0
        }
        if end == capacity {
            guard capacity < Self.maximumLineLength else {
                throw .badData("\(name): line \(lineNumber + 1): longer than \(Self.maximumLineLength >> 20) MiB")
            }
            let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity * 2)
            bigger.update(from: buffer, count: end)
            buffer.deallocate()
            buffer = bigger
            capacity *= 2
        }
        while true {
            let count = read(fd, buffer + end, capacity - end)
            if count < 0 {
                if errno == EINTR { continue }
                throw .io(path: name, reason: String(cString: strerror(errno)))
            }
            if count == 0 { atEnd = true } else { end += count }
            return
        }
    }
}
