import CoreKit
import BlogctlEngines

/// A feed entry as a post: the metadata the API would give, its HTML body, and a tag for the
/// body's content (the cache's ETag: a feed gives none per entry).
extension FeedEntry {
    /// The entry as the API's post metadata: its id is its post id too.
    var metadata: PostMetadata {
        PostMetadata(id: id, title: title, publishDate: date, postId: id, summary: summary,
                     author: Author(name: author ?? "", image: "", title: ""), link: link, base: base,
                     enclosures: enclosures.isEmpty ? nil : enclosures, picture: picture)
    }

    /// FNV-1a over what the entry shows, as a weak ETag: the same entry read again keeps it.
    var contentTag: String {
        var hash = FNV1a()
        // A picture and files only when there are some: the tags of entries without stay.
        let carried = (picture.map { [$0] } ?? [])
            + enclosures.map { [$0.url, $0.type ?? "", String($0.length ?? 0), String($0.duration ?? 0)].joined(separator: "\u{0}") }
        for part in [title, summary, body, author ?? "", link ?? "", base, date.map { String($0.timeIntervalSince1970) } ?? ""] + carried {
            hash.add(part)
            hash.add(0xFF)
        }
        return "W/\"feed-" + String(hash.value, radix: 16) + "\""
    }
}
