import FoundationEssentials
import CoreKit

/// The saved listing on disk (`listing.tsv`): one post a line, its fields between tabs, in a
/// form read with one pass over the bytes. `ui` opens with it, so its first screen waits on
/// it: JSON took a JSONDecoder pass over every post (most of the first frame at 10,000 posts).
/// A tab, newline, carriage return or backslash in a field is written `\t`, `\n`, `\r`, `\\`.
/// The first line names the format; a file of another or damaged format is an error. Version 2
/// added a feed entry's link and base, and lets the date be empty (unknown); version 1 (eight
/// fields) is still read.
enum ListingFile {
    static let header = "blogctl listing 2"
    static let fieldCount = 10
    static let version1 = (header: "blogctl listing 1", fieldCount: 8)

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
    private static func add(_ field: String, then separator: UInt8, to bytes: inout [UInt8]) {
        // The String's own bytes in place; `withUTF8` (which makes them contiguous) for one
        // that has none (bridged).
        if field.utf8.withContiguousStorageIfAvailable({ escape($0, into: &bytes) }) == nil {
            var field = field
            field.withUTF8 { escape($0, into: &bytes) }
        }
        bytes.append(separator)
    }

    private static func escape(_ utf8: UnsafeBufferPointer<UInt8>, into bytes: inout [UInt8]) {
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

    /// What is wrong with a file: its line, and why.
    struct Damage: Error, Equatable {
        let problem: String
    }

    /// The posts, or what is wrong with the file (with its line). One pass over the bytes in place: a field without a backslash becomes a string straight
    /// from them; only a field with one is copied to be unescaped.
    static func decode(_ bytes: [UInt8]) -> Result<[PostMetadata], Damage> {
        var headerBytes = Array((header + "\n").utf8)
        var fieldCount = Self.fieldCount
        if !bytes.starts(with: headerBytes) {
            headerBytes = Array((version1.header + "\n").utf8)
            fieldCount = version1.fieldCount
        }
        guard bytes.starts(with: headerBytes) else { return .failure(Damage(problem: "not a listing of this version")) }
        return bytes.withUnsafeBufferPointer { buffer -> Result<[PostMetadata], Damage> in
            var posts: [PostMetadata] = []
            var line = 1
            var fields: [String] = []
            fields.reserveCapacity(fieldCount)
            // The field so far, unescaped, once a backslash is met in it.
            var unescaped: [UInt8]?
            var start = headerBytes.count
            var index = start
            while index < buffer.count {
                let byte = buffer[index]
                if byte == 0x5C {
                    guard index + 1 < buffer.count else { return .failure(Damage(problem: "line \(line + 1): a backslash ends the file")) }
                    var field = unescaped ?? []
                    unescaped = nil  // `field` alone holds the bytes: appended to in place
                    field.append(contentsOf: buffer[start..<index])
                    switch buffer[index + 1] {
                    case 0x74: field.append(0x09)
                    case 0x6E: field.append(0x0A)
                    case 0x72: field.append(0x0D)
                    case 0x5C: field.append(0x5C)
                    default: return .failure(Damage(problem: "line \(line + 1): an unknown escape"))
                    }
                    unescaped = field
                    index += 2
                    start = index
                    continue
                }
                guard byte == 0x09 || byte == 0x0A else {
                    index += 1
                    continue
                }
                if var field = unescaped {
                    unescaped = nil
                    field.append(contentsOf: buffer[start..<index])
                    fields.append(String(decoding: field, as: UTF8.self))
                } else {
                    fields.append(String(decoding: UnsafeBufferPointer(rebasing: buffer[start..<index]), as: UTF8.self))
                }
                index += 1
                start = index
                guard byte == 0x0A else { continue }
                line += 1
                let seconds = Double(fields[2])
                guard fields.count == fieldCount, fields[2].isEmpty || seconds?.isFinite == true else {
                    return .failure(Damage(problem: "line \(line): not a post"))
                }
                posts.append(PostMetadata(id: fields[0], title: fields[3], publishDate: seconds.map { Date(timeIntervalSince1970: $0) },
                                          postId: fields[1], summary: fields[4],
                                          author: Author(name: fields[5], image: fields[6], title: fields[7]),
                                          link: fieldCount > 8 && !fields[8].isEmpty ? fields[8] : nil,
                                          base: fieldCount > 9 && !fields[9].isEmpty ? fields[9] : nil))
                fields.removeAll(keepingCapacity: true)
            }
            guard start == buffer.count, unescaped == nil, fields.isEmpty else { return .failure(Damage(problem: "line \(line + 1): cut short")) }
            return .success(posts)
        }
    }
}
