import FoundationEssentials
import SQLiteKit

/// An entry's row of the library, as a post: the columns read, and the values written.
enum EntryRow {
    /// The columns `post(_:from:)` reads, of `entries` named `e`.
    static let columns = "e.id, e.post_id, e.title, e.published, e.summary, e.author, e.author_image, e.author_title, e.link, e.base"

    /// The post in `row`, its `columns` from `offset` on.
    static func post(_ row: SQLRow, from offset: Int = 0) -> PostMetadata {
        let values = row.values
        func text(_ index: Int) -> String { values[offset + index].string ?? "" }
        return PostMetadata(id: text(0), title: text(2), publishDate: SourceRecord.date(values[offset + 3]), postId: text(1), summary: text(4),
                            author: Author(name: text(5), image: text(6), title: text(7)),
                            link: values[offset + 8].string, base: values[offset + 9].string)
    }

    /// The values of a post's row, in the order the listing's insert names its columns
    /// (source, id, post_id, title, published, summary, author, author_image, author_title,
    /// link, base, position, first_seen).
    static func values(source: Int, _ post: PostMetadata, position: Int, now: Date) -> [SQLValue] {
        [.integer(source), .text(post.id), .text(post.postId), .text(post.title),
         post.publishDate.map { .real($0.timeIntervalSince1970) } ?? .null, .text(post.summary),
         .text(post.author.name), .text(post.author.image), .text(post.author.title),
         .optional(post.link), .optional(post.base), .integer(position), .real(now.timeIntervalSince1970)]
    }
}
