#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Buffered writes to standard output, for results. A closed pipe (`| head`) ends the
/// process quietly with status 0 rather than an error, as cat(1) effectively does.
public struct StandardOutput: ~Copyable {
    private var buffer: [UInt8] = []
    private let capacity: Int
    /// Standard output, or another descriptor (tests write into a pipe).
    public let fd: Int32
    /// Flush after every line: for streams a person or a pipeline waits on.
    public var lineBuffered: Bool

    public init(fd: Int32 = 1, capacity: Int = 64 * 1024, lineBuffered: Bool = false) {
        self.fd = fd
        self.capacity = capacity
        self.lineBuffered = lineBuffered
        buffer.reserveCapacity(capacity)
    }

    public mutating func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= capacity { flush() }
    }

    public mutating func writeLine(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        buffer.append(0x0A)
        if lineBuffered || buffer.count >= capacity { flush() }
    }

    public mutating func write(bytes: some Sequence<UInt8>) {
        buffer.append(contentsOf: bytes)
        if buffer.count >= capacity { flush() }
    }

    public mutating func flush() {
        guard !buffer.isEmpty else { return }
        Self.writeAll(fd, buffer)
        buffer.removeAll(keepingCapacity: true)
    }

    deinit { if !buffer.isEmpty { Self.writeAll(fd, buffer) } }

    /// Writes everything to `fd` (`LocalFile.writeAll`); a broken pipe on stdout ends the process.
    static func writeAll(_ fd: Int32, _ bytes: [UInt8]) {
        bytes.withUnsafeBytes { writeAll(fd, $0) }
    }

    static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) {
        if LocalFile.writeAll(fd, bytes) == EPIPE && fd == 1 { exit(0) }
    }

    /// `value` as JSON (`JSONCoding.encode`) on stdout, with a final newline: what every
    /// `--json` prints. Indented, or one line for the one-object summaries scripts read.
    public static func printJSON<T: Encodable>(_ value: T, pretty: Bool = true) {
        writeAll(1, Array(JSONCoding.encode(value, pretty: pretty)) + [0x0A])
    }

    /// One unbuffered write of a whole text to stdout.
    public static func print(_ text: String) {
        // In place: a long list is megabytes, and a copy would double it at its peak.
        var text = text
        text.withUTF8 { writeAll(1, UnsafeRawBufferPointer($0)) }
    }

    /// `print`, for a caller with work of its own to finish (`list` storing bodies beside its
    /// output): a broken pipe sets `readerLeft` instead of ending the process, and nothing
    /// more is written.
    public static func print(_ text: String, readerLeft: inout Bool) {
        guard !readerLeft else { return }
        var text = text
        readerLeft = text.withUTF8 { LocalFile.writeAll(1, UnsafeRawBufferPointer($0)) } == EPIPE
    }

    /// One unbuffered write of bytes to `fd` (stdout by default).
    public static func write(bytes: [UInt8], fd: Int32 = 1) {
        writeAll(fd, bytes)
    }
}

/// Unbuffered lines on standard error: messages, warnings, verbose logs. The one way text
/// reaches stderr: whatever a message quotes, `Terminal.sanitize` has the last word.
public enum StandardError {
    public static func write(_ line: String) {
        // A progress line on stderr is cleared first; it is drawn again below at its next tick.
        let clear = ProgressDisplay.drawing.withLock { drawing in defer { drawing = false }; return drawing }
        StandardOutput.writeAll(2, (clear ? Array(("\r" + SGR.clearLine).utf8) : []) + bytes(of: line))
    }

    /// The most a message line holds: values in messages are cut by `Terminal.quote`, and
    /// this is the last guard, for whatever a message echoes uncut.
    public static let lineLimit = 2000

    /// What `write` prints for `line`: one line, cleaned as a field, cut at `lineLimit`
    /// characters, ended by a newline.
    public static func bytes(of line: String) -> [UInt8] {
        let clean = Terminal.sanitizeField(line)
        guard clean.utf8.count > lineLimit else { return Array((clean + "\n").utf8) }
        return Array((String(clean.prefix(lineLimit)) + "…\n").utf8)
    }

    /// Writes without a newline, for progress drawing: only our own control sequences and
    /// text already cleaned by the caller.
    public static func writeRaw(_ text: String) {
        StandardOutput.writeAll(2, Array(text.utf8))
    }
}
