import Foundation
@testable import BlogctlKit

/// Posts with ties, case differences and month boundaries, for the ordering tests.
enum Fixtures {
    static func post(_ id: String, _ title: String, _ date: String, _ author: String) -> PostMetadata {
        PostMetadata(id: id, title: title, publishDate: ISO8601DateFormatter().date(from: date)!, postId: id,
                     summary: "Summary of \(title)", author: Author(name: author, image: "/images/authors/x.jpg", title: "Writer"))
    }

    static let posts: [PostMetadata] = [
        post("a1", "zebra crossings", "2018-08-31T23:30:00Z", "Ada Lovelace"),
        post("a2", "Apple pie", "2018-06-01T00:00:00Z", "Ada Lovelace"),
        post("g1", "apple tart", "2018-07-15T12:00:00Z", "grace Hopper"),
        post("g2", "Middle", "2018-07-15T12:00:00Z", "grace Hopper"),
        post("e1", "Middle", "2018-08-01T00:00:00Z", "Edsger Dijkstra"),
        post("m1", "Óscar and others", "2018-06-30T23:59:59Z", "Margaret Hamilton"),
        post("m2", "banana", "2018-08-15T08:00:00Z", "Margaret Hamilton"),
    ]
}
