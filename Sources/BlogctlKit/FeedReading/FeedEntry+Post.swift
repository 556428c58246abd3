import CoreKit

/// A feed entry as a post: the metadata the API would give, its HTML body, and a tag for the
/// body's content (the cache's ETag: a feed gives none per entry).
extension FeedEntry {
    /// The entry as the API's post metadata: its id is its post id too.
    var metadata: PostMetadata {
        PostMetadata(id: id, title: title, publishDate: date, postId: id, summary: summary,
                     author: Author(name: author ?? "", image: "", title: ""), link: link, base: base)
    }

    /// FNV-1a over what the entry shows, as a weak ETag: the same entry read again keeps it.
    var contentTag: String {
        var hash = FNV1a()
        for part in [title, summary, body, author ?? "", link ?? "", base, date.map { String($0.timeIntervalSince1970) } ?? ""] {
            hash.add(part)
            hash.add(0xFF)
        }
        return "W/\"feed-" + String(hash.value, radix: 16) + "\""
    }
}
