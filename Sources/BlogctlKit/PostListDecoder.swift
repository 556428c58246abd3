import FoundationEssentials
import CoreKit

/// `GET /post-metadata` read straight from the bytes (`JSONScanner`), without Foundation's
/// decoder and the values it makes for every field (bench/blogctl measures it). Only the plain case is read here, a post whose
/// fields are all there, once each, as strings, with a date that reads: any other record is
/// given to `JSONCoding` on its own, so that it is skipped with the very words the decoder
/// says; a document that is not valid JSON is nil, and `APIClient` decodes it the usual way.
enum PostListDecoder {
    /// Deeper than this inside a record is left to the decoder (which counts the whole document).
    static let depth = JSONCoding.maximumDepth - 4

    static func decode(_ raw: UnsafeRawBufferPointer) -> LenientList<PostMetadata>? {
        let bytes = raw.bindMemory(to: UInt8.self)
        var scanner = JSONScanner(bytes)
        guard scanner.take(UInt8(ascii: "[")) else { return nil }
        var records: [PostMetadata] = []
        var skipped: [LenientList<PostMetadata>.Skipped] = []
        if !scanner.take(UInt8(ascii: "]")) {
            repeat {
                _ = scanner.peek()
                let start = scanner.index
                if let post = post(&scanner) {
                    records.append(post)
                    continue
                }
                // Not the plain case: the record alone, through the decoder.
                scanner.move(to: start)
                guard scanner.skipValue(depth: depth) else { return nil }
                let index = records.count + skipped.count
                switch decodeAlone(scanner.slice(from: start), index: index) {
                case .post(let post): records.append(post)
                case .skipped(let problem): skipped.append(problem)
                }
            } while scanner.take(UInt8(ascii: ","))
            guard scanner.take(UInt8(ascii: "]")) else { return nil }
        }
        scanner.skipSpace()
        guard scanner.isAtEnd else { return nil }
        return LenientList(records: records, skipped: skipped)
    }

    static let postKeys = ["id", "title", "publishDate", "postId", "summary"]
    static let authorKeys = ["name", "image", "title"]

    /// A post in the plain case, or nil (the scanner is then anywhere inside the record).
    static func post(_ scanner: inout JSONScanner) -> PostMetadata? {
        var author: Author?
        let fields = strings(&scanner, postKeys, depth: depth) { key, scanner in
            guard key == "author" else { return nil }
            guard author == nil, let value = self.author(&scanner) else { return false }
            author = value
            return true
        }
        guard let fields, let id = fields[0], let title = fields[1], let date = fields[2].flatMap(ISO8601.parse),
              let postId = fields[3], let summary = fields[4], let author,
              // An id the one id rule refuses is left to the decoder, which skips it, named.
              ResourceID.problem(id) == nil, ResourceID.problem(postId) == nil
        else { return nil }
        return PostMetadata(id: id, title: title, publishDate: date, postId: postId, summary: summary, author: author)
    }

    private static func author(_ scanner: inout JSONScanner) -> Author? {
        guard let fields = strings(&scanner, authorKeys, depth: depth - 1), let name = fields[0], let image = fields[1],
              let title = fields[2]
        else { return nil }
        return Author(name: name, image: image, title: title)
    }

    /// The string members named `keys` of the object at the scanner, by position in `keys`
    /// (nil: absent), each at most once; any other member is `other`'s to read (true: read,
    /// false: not the plain case, nil: not its key, skipped). nil: not an object of the plain case.
    private static func strings(_ scanner: inout JSONScanner, _ keys: [String], depth: Int,
                                other: (String, inout JSONScanner) -> Bool? = { _, _ in nil }) -> [String?]? {
        var fields: [String?] = Array(repeating: nil, count: keys.count)
        guard scanner.take(UInt8(ascii: "{")) else { return nil }
        guard !scanner.take(UInt8(ascii: "}")) else { return fields }
        repeat {
            guard let key = scanner.string(), scanner.take(UInt8(ascii: ":")) else { return nil }
            if let slot = keys.firstIndex(of: key) {
                guard fields[slot] == nil, let value = scanner.string() else { return nil }
                fields[slot] = value
            } else if let read = other(key, &scanner) {
                guard read else { return nil }
            } else {
                guard scanner.skipValue(depth: depth) else { return nil }
            }
        } while scanner.take(UInt8(ascii: ","))
        return scanner.take(UInt8(ascii: "}")) ? fields : nil
    }

    enum Alone {
        case post(PostMetadata)
        case skipped(LenientList<PostMetadata>.Skipped)
    }

    /// One record through the decoder, as the element of a list of one, its index put right.
    static func decodeAlone(_ record: UnsafeBufferPointer<UInt8>, index: Int) -> Alone {
        let document = Data([UInt8(ascii: "[")] + Array(record) + [UInt8(ascii: "]")])
        guard let list = try? JSONCoding.decode(LenientList<PostMetadata>.self, from: document) else {
            return .skipped(.init(index: index, problem: JSONDecodeFailure(path: "[\(index)]", problem: "invalid record")))
        }
        if let post = list.records.first { return .post(post) }
        guard let skipped = list.skipped.first else {
            return .skipped(.init(index: index, problem: JSONDecodeFailure(path: "[\(index)]", problem: "invalid record")))
        }
        let path = skipped.problem.path.hasPrefix("[0]") ? "[\(index)]" + skipped.problem.path.dropFirst(3) : skipped.problem.path
        return .skipped(.init(index: index, problem: JSONDecodeFailure(path: path, problem: skipped.problem.problem), id: skipped.id))
    }
}
