import CZlib

/// gzip-format compression with zlib (`deflateInit2`, windowBits 31), so `zcat` reads what
/// the cache writes, and bounded decompression that checks the trailer's CRC-32 and length.
public enum Gzip {
    public enum Failure: Error, Equatable, CustomStringConvertible {
        /// Not gzip, a bad CRC or length, or a stream that ends early.
        case corrupt(String)
        /// The output would pass the bound the caller set.
        case tooLarge(limit: Int)

        public var description: String {
            switch self {
            case .corrupt(let reason): return "corrupt gzip data (\(reason))"
            case .tooLarge(let limit): return "gzip data expands beyond \(limit) bytes"
            }
        }
    }

    /// Compresses `input` at `level` (zlib's 1–9; 6 is gzip's default).
    public static func compress(_ input: [UInt8], level: Int32 = 6) -> [UInt8] {
        input.withUnsafeBufferPointer { compress($0, level: level) }
    }

    /// Compresses `input` in one pass, the output growing by pieces: memory beyond the input
    /// is about the compressed size, not another copy of the input (deflateBound's worst case).
    public static func compress(_ input: UnsafeBufferPointer<UInt8>, level: Int32 = 6) -> [UInt8] {
        var stream = z_stream()
        // 31 = 15 (the largest window) + 16 (write a gzip header and trailer, not zlib's).
        let status = deflateInit2_(&stream, level, Z_DEFLATED, 31, 8, Z_DEFAULT_STRATEGY,
                                   ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        precondition(status == Z_OK, "deflateInit2 failed: \(status)")
        defer { deflateEnd(&stream) }
        var output: [UInt8] = []
        var piece = [UInt8](repeating: 0, count: 1 << 18)
        var offset = 0
        var result = Z_OK
        while result != Z_STREAM_END {
            // zlib counts input in 32 bits: feed at most 1 GiB at a time.
            if stream.avail_in == 0 && offset < input.count {
                let count = min(input.count - offset, 1 << 30)
                stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress! + offset)
                stream.avail_in = uInt(count)
                offset += count
            }
            let flush = offset == input.count ? Z_FINISH : Z_NO_FLUSH
            let produced = piece.withUnsafeMutableBufferPointer { target -> Int in
                stream.next_out = target.baseAddress
                stream.avail_out = uInt(target.count)
                result = deflate(&stream, flush)
                return target.count - Int(stream.avail_out)
            }
            precondition(result == Z_OK || result == Z_STREAM_END || result == Z_BUF_ERROR, "deflate failed: \(result)")
            output += piece[0..<produced]
        }
        return output
    }

    /// Decompresses one gzip member, never producing more than `limit` bytes. zlib checks the
    /// trailer: a wrong CRC-32 or length is `corrupt`, and so is input that stops early or
    /// carries bytes after the member.
    public static func decompress(_ input: [UInt8], limit: Int) throws(Failure) -> [UInt8] {
        var output = [UInt8]()
        output.reserveCapacity(min(max(declaredLength(input), 1024), limit + 1))
        try decompress(input, limit: limit) { output.append(contentsOf: $0) }
        return output
    }

    /// The trailer's length (the input's size modulo 2^32), to size a buffer.
    static func declaredLength(_ input: [UInt8]) -> Int {
        guard input.count >= 4 else { return 0 }
        return Int(input[input.count - 4]) | Int(input[input.count - 3]) << 8
            | Int(input[input.count - 2]) << 16 | Int(input[input.count - 1]) << 24
    }

    /// Decompresses bytes held elsewhere (a response's buffer) as below, taking them a MiB at
    /// a time: no copy of the whole input is made.
    @discardableResult
    public static func decompress(_ input: UnsafeRawBufferPointer, limit: Int,
                                  consume: (UnsafeBufferPointer<UInt8>) -> Void) throws(Failure) -> Int {
        guard input.count >= 18 else { throw .corrupt("not gzip") }
        var offset = 0
        return try inflateMember(limit: limit, consume: consume) { buffer in
            let count = min(1 << 20, input.count - offset)
            buffer = Array(input[offset..<(offset + count)])
            offset += count
            return count
        }
    }

    /// Decompresses as above, handing the output to `consume` in pieces of up to 256 kB as it
    /// is produced, so the whole never has to be in memory. The trailer is checked at the end:
    /// only a call that returns has produced correct output. Returns the number of bytes.
    @discardableResult
    public static func decompress(_ input: [UInt8], limit: Int,
                                  consume: (UnsafeBufferPointer<UInt8>) -> Void) throws(Failure) -> Int {
        guard input.count >= 18 else { throw .corrupt("not gzip") }
        var given = false
        return try inflateMember(limit: limit, consume: consume) { buffer in
            // The whole input at once, then its end.
            guard !given else { return 0 }
            given = true
            buffer = input
            return input.count
        }
    }
}
