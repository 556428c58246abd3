import FoundationEssentials
import CoreKit

/// The listing blogctl saved before the library (`listing.tsv`), read once, to take it in
/// (`OldLayout`): one post a line, its fields between tabs, read in one pass over the bytes.
/// A tab, newline, carriage return or backslash in a field was written `\t`, `\n`, `\r`, `\\`.
/// (Its encoder, the previous release's, is kept in the tests to make such files.)
/// The first line names the format; a file of another or damaged format is an error. Version 2
/// added a feed entry's link and base, and lets the date be empty (unknown); version 1 (eight
/// fields) is still read.
enum ListingFile {
    static let header = "blogctl listing 2"
    static let fieldCount = 10
    static let version1 = (header: "blogctl listing 1", fieldCount: 8)

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
