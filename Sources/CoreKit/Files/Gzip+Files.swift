#if canImport(Glibc)
import Glibc
#endif
import CZlib

/// gzip to and from files, a piece at a time: a body of any size goes network → compressor →
/// cache file, and cache file → decompressor → renderer, never whole in memory.
extension Gzip {
    /// Compresses what it is given into an open file, as it is given.
    public final class FileWriter {
        private var stream = z_stream()
        private let fd: Int32
        private var piece = [UInt8](repeating: 0, count: 1 << 16)
        /// Bytes taken in (uncompressed) and written out (compressed).
        public private(set) var bytesIn = 0
        public private(set) var bytesOut = 0
        /// CRC-32 of the bytes written out (the file as stored): a reader checks the file
        /// against it without inflating it.
        public private(set) var storedCRC: UInt32 = 0
        /// The errno of the first failed write, if any: later writes do nothing.
        public private(set) var failure: Int32 = 0

        public init(fd: Int32, level: Int32 = 6) {
            self.fd = fd
            let status = deflateInit2_(&stream, level, Z_DEFLATED, 31, 8, Z_DEFAULT_STRATEGY,
                                       ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
            precondition(status == Z_OK, "deflateInit2 failed: \(status)")
        }

        deinit { deflateEnd(&stream) }

        public func write(_ input: UnsafeBufferPointer<UInt8>) {
            guard !input.isEmpty else { return }
            bytesIn += input.count
            var offset = 0
            while offset < input.count {
                // zlib counts input in 32 bits.
                let count = min(input.count - offset, 1 << 30)
                stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress! + offset)
                stream.avail_in = uInt(count)
                offset += count
                run(Z_NO_FLUSH)
            }
        }

        /// Ends the stream (the trailer with CRC-32 and length); the errno of a failed write, or 0.
        public func finish() -> Int32 {
            stream.next_in = nil
            stream.avail_in = 0
            run(Z_FINISH)
            return failure
        }

        private func run(_ flush: Int32) {
            var result = Z_OK
            repeat {
                let produced = piece.withUnsafeMutableBufferPointer { target -> Int in
                    stream.next_out = target.baseAddress
                    stream.avail_out = uInt(target.count)
                    result = deflate(&stream, flush)
                    return target.count - Int(stream.avail_out)
                }
                if produced > 0 && failure == 0 {
                    failure = LocalFile.writeAll(fd, Array(piece[0..<produced]))
                    bytesOut += produced
                    storedCRC = piece.withUnsafeBufferPointer { Gzip.crc32(storedCRC, UnsafeBufferPointer(rebasing: $0[0..<produced])) }
                }
            } while (flush == Z_FINISH && result != Z_STREAM_END) || (flush != Z_FINISH && stream.avail_out == 0)
        }
    }

    /// CRC-32 (zlib's) of `bytes`, continuing from `crc`.
    public static func crc32(_ crc: UInt32, _ bytes: UnsafeBufferPointer<UInt8>) -> UInt32 {
        guard let base = bytes.baseAddress else { return crc }
        return UInt32(crc32_z(uLong(crc), base, z_size_t(bytes.count)))
    }

    /// CRC-32 of what is left of the open file `fd`, read a piece at a time; nil when a read fails.
    public static func crc32(fd: Int32) -> (crc: UInt32, count: Int)? {
        var buffer = [UInt8](repeating: 0, count: 1 << 18)
        var crc: UInt32 = 0
        var total = 0
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 { if errno == EINTR { continue } else { return nil } }
            if count == 0 { return (crc, total) }
            total += count
            crc = buffer.withUnsafeBufferPointer { crc32(crc, UnsafeBufferPointer(rebasing: $0[0..<count])) }
        }
    }

    /// Decompresses the one gzip member in the open file `fd`, reading it a piece at a time,
    /// never producing more than `limit` bytes; the trailer's CRC-32 and length are checked
    /// at the end, and bytes after the member are corruption. Returns the number of bytes.
    @discardableResult
    public static func decompress(fd: Int32, limit: Int, consume: (UnsafeBufferPointer<UInt8>) -> Void) throws(Failure) -> Int {
        try inflateMember(limit: limit, consume: consume) { buffer throws(Failure) in
            if buffer.count != 1 << 16 { buffer = [UInt8](repeating: 0, count: 1 << 16) }
            while true {
                let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if count >= 0 { return count }
                if errno != EINTR { throw .corrupt(String(cString: strerror(errno))) }
            }
        }
    }

    /// The one inflate loop: input from `next` (which fills its buffer and says how many bytes,
    /// 0 at the end), output to `consume`, at most `limit` bytes. One gzip member: input that
    /// ends before its trailer is truncated, bytes after it are corruption, a bad CRC-32 or
    /// length is corrupt.
    static func inflateMember(limit: Int, consume: (UnsafeBufferPointer<UInt8>) -> Void,
                        next: (inout [UInt8]) throws(Failure) -> Int) throws(Failure) -> Int {
        var stream = z_stream()
        guard inflateInit2_(&stream, 31, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw .corrupt("inflateInit2 failed")
        }
        defer { inflateEnd(&stream) }
        var input: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 256 * 1024)
        var total = 0
        var started = false
        var finished = false
        while !finished {
            let count = try next(&input)
            if count == 0 { throw .corrupt(started ? "truncated" : "not gzip") }
            if !started {
                guard count >= 2, input[0] == 0x1F, input[1] == 0x8B else { throw .corrupt("not gzip") }
                started = true
            }
            var failure: Failure?
            input.withUnsafeMutableBufferPointer { source in
                stream.next_in = source.baseAddress
                stream.avail_in = uInt(count)
                chunk.withUnsafeMutableBufferPointer { target in
                    while failure == nil && !finished {
                        stream.next_out = target.baseAddress
                        stream.avail_out = uInt(target.count)
                        let result = inflate(&stream, Z_NO_FLUSH)
                        let produced = target.count - Int(stream.avail_out)
                        if total + produced > limit {
                            failure = .tooLarge(limit: limit)
                            break
                        }
                        total += produced
                        if produced > 0 { consume(UnsafeBufferPointer(rebasing: target[0..<produced])) }
                        switch result {
                        case Z_STREAM_END: finished = true
                        case Z_OK, Z_BUF_ERROR:
                            // Everything given is used and nothing more came out: more input.
                            if stream.avail_in == 0 && stream.avail_out > 0 { return }
                            if result == Z_BUF_ERROR && produced == 0 { failure = .corrupt("no progress") }
                        case Z_DATA_ERROR: failure = .corrupt(stream.msg.map { String(cString: $0) } ?? "bad data")
                        default: failure = .corrupt("inflate error \(result)")
                        }
                    }
                }
            }
            if let failure { throw failure }
        }
        guard stream.avail_in == 0, try next(&input) == 0 else { throw .corrupt("trailing bytes after the gzip member") }
        return total
    }
}
