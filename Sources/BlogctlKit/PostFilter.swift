import FoundationEssentials
import ToolboxKit

/// `list --author --since --until --unread --limit`: which posts a listing keeps. Filters
/// apply before grouping and sorting; the limit after, to the first posts in display order.
public struct PostFilter: Sendable {
    /// A case-insensitive part of the author's name.
    public var author: String?
    /// Posts published at or after this instant.
    public var since: Date?
    /// Posts published at or before this instant.
    public var until: Date?
    public var unreadOnly: Bool
    public var limit: Int?
    /// `--filter`: newsboat's filter language, tested by a `FilterMatcher` where the
    /// listing is read (`ListRun.stream`).
    public var expression: FilterExpression?

    public init(author: String? = nil, since: Date? = nil, until: Date? = nil, unreadOnly: Bool = false, limit: Int? = nil,
                expression: FilterExpression? = nil) {
        self.author = author
        self.since = since
        self.until = until
        self.unreadOnly = unreadOnly
        self.limit = limit
        self.expression = expression
    }

    /// Whether every post is kept (no filter asked for): the listing need not be copied.
    public var keepsAll: Bool { !unreadOnly && since == nil && until == nil && (author ?? "").isEmpty && expression == nil }

    public func keeps(_ post: PostMetadata, isRead: Bool) -> Bool {
        if unreadOnly && isRead { return false }
        // A post of unknown date is outside every date range.
        if since != nil || until != nil, post.publishDate == nil { return false }
        if let since, let date = post.publishDate, date < since { return false }
        if let until, let date = post.publishDate, date > until { return false }
        if let author, !author.isEmpty, !post.author.name.lowercased().contains(author.lowercased()) { return false }
        return true
    }

    /// The first `limit` posts of the arranged groups, in display order; emptied groups go.
    public func limited(_ groups: [PostGroup]) -> [PostGroup] {
        guard var left = limit else { return groups }
        var kept: [PostGroup] = []
        for group in groups where left > 0 {
            let posts = Array(group.posts.prefix(left))
            left -= posts.count
            kept.append(PostGroup(name: group.name, posts: posts))
        }
        return kept
    }
}
