import FoundationEssentials
// The fuzz harness (fuzz/listing-file.swift) compiles this file with ListingFile.swift itself,
// where there is no BlogctlKit module to import.
#if canImport(BlogctlKit)
import CoreKit
@testable import BlogctlKit
#endif

/// The previous release's encoder of `listing.tsv`, kept to make files of that format for the
/// tests of its decoder and of the take-in (`OldLayout`): blogctl itself no longer writes them.
extension ListingFile {
    static func encode(_ posts: [PostMetadata]) -> [UInt8] {
        var whole: [UInt8] = []
        encode(posts) { whole += $0 }
        return whole
    }

    /// The file's bytes, handed to `write` about a MiB at a time: 100,000 feed entries make
    /// 35 MB, which a buffer grown to hold it whole made a 51 MB peak (and a copy of 25).
    static func encode(_ posts: [PostMetadata], write: ([UInt8]) -> Void) {
        let piece = 1 << 20
        var bytes = Array((header + "\n").utf8)
        bytes.reserveCapacity(piece + (64 << 10))
        for post in posts {
            // One field after another, each ended by a tab (the last by a newline): no array
            // of ten made for each post.
            add(post.id, then: 0x09, to: &bytes)
            add(post.postId, then: 0x09, to: &bytes)
            add(post.publishDate.map(seconds) ?? "", then: 0x09, to: &bytes)
            add(post.title, then: 0x09, to: &bytes)
            add(post.summary, then: 0x09, to: &bytes)
            add(post.author.name, then: 0x09, to: &bytes)
            add(post.author.image, then: 0x09, to: &bytes)
            add(post.author.title, then: 0x09, to: &bytes)
            add(post.link ?? "", then: 0x09, to: &bytes)
            add(post.base ?? "", then: 0x0A, to: &bytes)
            if bytes.count >= piece {
                write(bytes)
                bytes.removeAll(keepingCapacity: true)
            }
        }
        write(bytes)
    }

    /// A date as seconds since 1970, as `Double` reads it back: a whole number (every date
    /// a feed or the API gives) as an integer, which is made in a fraction of a Double's time.
    static func seconds(_ date: Date) -> String {
        let seconds = date.timeIntervalSince1970
        if seconds == seconds.rounded(), abs(seconds) < 1e15 { return String(Int64(seconds)) }
        return String(seconds)
    }

    /// One field from its String's own bytes, escaped, then `separator`. Most fields hold
    /// nothing to escape and go in whole. (`bytes` passed in, not captured: a captured buffer
    /// paid a dynamic exclusivity check per field.)
    static func add(_ field: String, then separator: UInt8, to bytes: inout [UInt8]) {
        // The String's own bytes in place; `withUTF8` (which makes them contiguous) for one
        // that has none (bridged).
        if field.utf8.withContiguousStorageIfAvailable({ escape($0, into: &bytes) }) == nil {
            var field = field
            field.withUTF8 { escape($0, into: &bytes) }
        }
        bytes.append(separator)
    }

    static func escape(_ utf8: UnsafeBufferPointer<UInt8>, into bytes: inout [UInt8]) {
        guard needsEscaping(utf8) else { return bytes.append(contentsOf: utf8) }
        for byte in utf8 {
            switch byte {
            case 0x09: bytes += [0x5C, 0x74]
            case 0x0A: bytes += [0x5C, 0x6E]
            case 0x0D: bytes += [0x5C, 0x72]
            case 0x5C: bytes += [0x5C, 0x5C]
            default: bytes.append(byte)
            }
        }
    }

    /// Whether `utf8` holds a tab, newline, carriage return or backslash. Eight bytes a step
    /// (a zero byte of `word ^ target` found as in Hacker's Delight 6-1): a summary is read
    /// at a fraction of a byte-at-a-time test's cost, the listing's largest part.
    static func needsEscaping(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        func hasZeroByte(_ word: UInt64) -> Bool { (word &- ones) & ~word & highs != 0 }
        var offset = 0
        if let base = utf8.baseAddress {
            let raw = UnsafeRawPointer(base)
            while offset + 8 <= utf8.count {
                let word = raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                if hasZeroByte(word ^ (ones &* 0x09)) || hasZeroByte(word ^ (ones &* 0x0A))
                    || hasZeroByte(word ^ (ones &* 0x0D)) || hasZeroByte(word ^ (ones &* 0x5C)) { return true }
                offset += 8
            }
        }
        return utf8[offset...].contains { $0 == 0x09 || $0 == 0x0A || $0 == 0x0D || $0 == 0x5C }
    }

}
