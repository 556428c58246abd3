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

    public init(author: String? = nil, since: Date? = nil, until: Date? = nil, unreadOnly: Bool = false, limit: Int? = nil) {
        self.author = author
        self.since = since
        self.until = until
        self.unreadOnly = unreadOnly
        self.limit = limit
    }

    public func keeps(_ post: PostMetadata, isRead: Bool) -> Bool {
        if unreadOnly && isRead { return false }
        if let since, post.publishDate < since { return false }
        if let until, post.publishDate > until { return false }
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

    /// A `--since`/`--until` value: a day `YYYY-MM-DD` in the reader's zone (its first second
    /// for since, its last for until), or an ISO 8601 instant. nil when it is neither.
    public static func parseDate(_ text: String, endOfDay: Bool,
                                 utcOffset: @Sendable (Date) -> Int = PostOrdering.localOffset) -> Date? {
        if let instant = ISO8601.parse(text) { return instant }
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
              (1...12).contains(month), (1...daysIn(month, year)).contains(day),
              let utcMidnight = ISO8601.parse(Self.fourDigits(year) + "-" + parts[1] + "-" + parts[2] + "T00:00:00Z") else { return nil }
        // The zone's offset at that day, then the day's bounds in that zone.
        let start = utcMidnight.addingTimeInterval(-Double(utcOffset(utcMidnight)))
        return endOfDay ? start.addingTimeInterval(86_399) : start
    }

    static func fourDigits(_ value: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    static func daysIn(_ month: Int, _ year: Int) -> Int {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}
