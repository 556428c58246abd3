#if canImport(Glibc)
import Glibc
#endif

/// Text too long to hold in memory (a post of a gigabyte, rendered): its bytes in a file that
/// is unlinked as soon as it is made (nothing stays on disk, whatever ends the program), and
/// the offset of every `stride`-th line, so any window of lines is read with one `pread`.
/// Memory is the sparse index: 8 bytes per 256 lines. Immutable once written, so shared
/// freely between the screen's thread and the work that made it.
public final class SpooledText: Sendable {
    /// Lines between two recorded offsets.
    static let stride = 256
    /// A line longer than this is cut when read (a renderer's lines are far shorter).
    static let longestLine = 1 << 16

    private let fd: Int32
    public let lineCount: Int
    /// The offset of line `k * stride`, for every k.
    private let offsets: [Int]
    private let size: Int

    fileprivate init(fd: Int32, lineCount: Int, offsets: [Int], size: Int) {
        self.fd = fd
        self.lineCount = lineCount
        self.offsets = offsets
        self.size = size
    }

    deinit { close(fd) }

    /// Lines `range` (clamped to the text), without their newlines.
    public func lines(_ range: Range<Int>) -> [String] {
        let range = range.clamped(to: 0..<lineCount)
        guard !range.isEmpty else { return [] }
        var result: [String] = []
        result.reserveCapacity(range.count)
        forEachLine(from: range.lowerBound) { number, bytes in
            guard number < range.upperBound else { return false }
            result.append(String(decoding: bytes, as: UTF8.self))
            return true
        }
        return result
    }

    /// The first (or with `last`, the last) line in `range` holding `needle`, any case; nil
    /// when none does. Read a piece at a time: the last is found block by block from the end,
    /// so a match near the end of the range costs one block.
    public func line(containing needle: String, in range: Range<Int>, last: Bool) -> Int? {
        let range = range.clamped(to: 0..<lineCount)
        guard !range.isEmpty, !needle.isEmpty else { return nil }
        let folded = Array(needle.lowercased().utf8)
        let ascii = folded.allSatisfy { $0 < 0x80 }
        func matches(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
            if ascii { return Self.containsFoldingASCII(line, folded) }
            return String(decoding: line, as: UTF8.self).lowercased().utf8.firstRange(of: folded) != nil
        }
        if !last {
            var found: Int?
            forEachLine(from: range.lowerBound) { number, line in
                guard number < range.upperBound else { return false }
                if matches(line) { found = number; return false }
                return true
            }
            return found
        }
        var block = (range.upperBound - 1) / Self.stride
        while block >= range.lowerBound / Self.stride {
            let lines = max(block * Self.stride, range.lowerBound)..<min((block + 1) * Self.stride, range.upperBound)
            var found: Int?
            forEachLine(from: lines.lowerBound) { number, line in
                guard number < lines.upperBound else { return false }
                if matches(line) { found = number }
                return true
            }
            if let found { return found }
            block -= 1
        }
        return nil
    }

    /// Calls `body` with each line from `first` on, in order, until it returns false.
    private func forEachLine(from first: Int, _ body: (Int, UnsafeBufferPointer<UInt8>) -> Bool) {
        guard first < lineCount else { return }
        var offset = offsets[first / Self.stride]
        var number = first / Self.stride * Self.stride
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var line: [UInt8] = []
        while offset < size && number < lineCount {
            let count = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, off_t(offset)) }
            guard count > 0 else { return }
            offset += count
            var start = 0
            for index in 0..<count where buffer[index] == 0x0A {
                line.append(contentsOf: buffer[start..<min(index, start + Self.longestLine)])
                start = index + 1
                if number >= first {
                    let more = line.prefix(Self.longestLine).withUnsafeBufferPointer { body(number, $0) }
                    if !more { return }
                }
                line.removeAll(keepingCapacity: true)
                number += 1
            }
            if line.count < Self.longestLine { line.append(contentsOf: buffer[start..<count].prefix(Self.longestLine - line.count)) }
        }
        if !line.isEmpty && number >= first && number < lineCount { _ = line.withUnsafeBufferPointer { body(number, $0) } }
    }

    static func containsFoldingASCII(_ haystack: UnsafeBufferPointer<UInt8>, _ needle: [UInt8]) -> Bool {
        guard needle.count <= haystack.count else { return false }
        let first = needle[0]
        var index = 0
        let last = haystack.count - needle.count
        while index <= last {
            if fold(haystack[index]) == first {
                var offset = 1
                while offset < needle.count && fold(haystack[index + offset]) == needle[offset] { offset += 1 }
                if offset == needle.count { return true }
            }
            index += 1
        }
        return false
    }

    @inline(__always) static func fold(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte }

    /// Writes a text a piece at a time into a new unlinked file in `folder`.
    public final class Writer {
        private let fd: Int32
        private var buffer: [UInt8] = []
        private var written = 0
        private var lineCount = 0
        private var offsets = [0]
        private var endsWithNewline = true
        private var failure: Int32 = 0

        /// A file in `folder` (which should be private to the user), unlinked at once.
        public init(folder: String) throws(ToolError) {
            var fd: Int32 = -1
            for _ in 0..<8 {
                let path = folder + "/.spool.\(getpid()).\(UInt64.random(in: 0...UInt64.max))"
                fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
                if fd >= 0 {
                    unlink(path)
                    break
                }
                if errno != EEXIST { break }
            }
            guard fd >= 0 else { throw .io(path: folder, reason: String(cString: strerror(errno))) }
            self.fd = fd
            buffer.reserveCapacity(1 << 16)
        }

        public func append(_ bytes: [UInt8]) {
            for byte in bytes {
                buffer.append(byte)
                if byte == 0x0A {
                    lineCount += 1
                    if lineCount % SpooledText.stride == 0 { offsets.append(written + buffer.count) }
                }
            }
            if let last = bytes.last { endsWithNewline = last == 0x0A }
            if buffer.count >= 1 << 16 { flush() }
        }

        private func flush() {
            guard !buffer.isEmpty else { return }
            if failure == 0 { failure = LocalFile.writeAll(fd, buffer) }
            written += buffer.count
            buffer.removeAll(keepingCapacity: true)
        }

        /// The text written; a last line without a newline counts as a line.
        public func finish() throws(ToolError) -> SpooledText {
            flush()
            guard failure == 0 else {
                close(fd)
                throw .io(path: "a temporary file", reason: String(cString: strerror(failure)))
            }
            let lines = lineCount + (endsWithNewline ? 0 : 1)
            if offsets.count > 1 && offsets.last == written { offsets.removeLast() }
            return SpooledText(fd: fd, lineCount: lines, offsets: offsets, size: written)
        }
    }

    /// `lines` spooled in `folder` (default `$TMPDIR` or /tmp): for small texts and tests.
    public static func of(_ lines: [String], folder: String? = nil) throws(ToolError) -> SpooledText {
        let writer = try Writer(folder: folder ?? Environment.current["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp")
        for line in lines { writer.append(Array(line.utf8) + [0x0A]) }
        return try writer.finish()
    }
}
