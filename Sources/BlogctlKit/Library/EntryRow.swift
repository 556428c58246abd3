import FoundationEssentials
import SQLiteKit
import CoreKit
import BlogctlEngines

/// An entry's row of the library, as a post: the columns read, and the values written.
enum EntryRow {
    /// The columns `post(_:from:)` reads, of `entries` named `e`.
    static let columns = "e.id, e.post_id, e.title, e.published, e.summary, e.author, e.author_image, e.author_title, e.link, e.base, "
        + "e.enclosures, e.picture"

    /// The columns `values` gives, in its order, for an insert (`present` is 1 and left to
    /// the table's default).
    static let inserted = "source, id, post_id, title, published, summary, author, author_image, author_title, link, base, "
        + "position, first_seen, enclosures, picture"

    /// `?` for each of `inserted`.
    static let placeholders = Array(repeating: "?", count: 15).joined(separator: ", ")

    /// The post in `row`, its `columns` from `offset` on.
    static func post(_ row: SQLRow, from offset: Int = 0) -> PostMetadata {
        let values = row.values
        func text(_ index: Int) -> String { values[offset + index].string ?? "" }
        return PostMetadata(id: text(0), title: text(2), publishDate: SourceRecord.date(values[offset + 3]), postId: text(1), summary: text(4),
                            author: Author(name: text(5), image: text(6), title: text(7)),
                            link: values[offset + 8].string, base: values[offset + 9].string,
                            enclosures: values[offset + 10].string.flatMap(enclosures), picture: values[offset + 11].string)
    }

    /// The enclosures a row keeps; none when the text is not what `values` wrote.
    static func enclosures(_ text: String) -> [Enclosure]? {
        (try? JSONCoding.decode([Enclosure].self, from: Data(text.utf8))).flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The values of a post's row, in the order of `inserted`.
    static func values(source: Int, _ post: PostMetadata, position: Int, now: Date) -> [SQLValue] {
        [.integer(source), .text(post.id), .text(post.postId), .text(post.title),
         post.publishDate.map { .real($0.timeIntervalSince1970) } ?? .null, .text(post.summary),
         .text(post.author.name), .text(post.author.image), .text(post.author.title),
         .optional(post.link), .optional(post.base), .integer(position), .real(now.timeIntervalSince1970),
         .optional(post.enclosures.map { String(decoding: JSONCoding.encode($0), as: UTF8.self) }), .optional(post.picture)]
    }
}
