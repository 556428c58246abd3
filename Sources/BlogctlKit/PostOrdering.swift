#if canImport(Glibc)
import Glibc
#endif
import CoreKit
import FoundationEssentials

/// How `list` groups posts: not at all, by author (A→Z), by month of publication (newest
/// first), by feed, or by the feed's tag (its first: its folder, A→Z; "" for a feed without one).
public enum PostGrouping: String, CaseIterable, Codable, Sendable {
    case none, author, month, feed, tag
}

/// The order inside a group: date newest first, title or author A→Z.
public enum PostSorting: String, CaseIterable, Codable, Sendable {
    case date, title, author
}

/// A group of posts under its header; the header is empty when not grouped.
public struct PostGroup: Sendable, Equatable {
    public var name: String
    public var posts: [PostMetadata]
}

/// Groups and sorts post summaries for display. Every comparison ends in a tie-break on the
/// id, so the order never depends on the server's order.
public struct PostOrdering: Sendable {
    public var grouping: PostGrouping
    public var sorting: PostSorting
    public var reversed: Bool
    /// Seconds east of UTC for month groups; the local zone by default.
    public var utcOffset: @Sendable (Date) -> Int
    /// Each feed's tag group, by the name its posts are listed under (`PostMetadata.feed`),
    /// for grouping by tag a list held in memory (the library's reads take them by source).
    public var feedTags: [String: String] = [:]

    public init(grouping: PostGrouping = .none, sorting: PostSorting = .date, reversed: Bool = false,
                utcOffset: @escaping @Sendable (Date) -> Int = LocalTime.offset(at:)) {
        self.grouping = grouping
        self.sorting = sorting
        self.reversed = reversed
        self.utcOffset = utcOffset
    }

    /// The posts in their groups. Not grouped, the one group is `posts` itself, put in order
    /// in place (`permute`): no second list is held beside the first at `list`'s peak.
    public func arrange(_ posts: consuming [PostMetadata]) -> [PostGroup] {
        let groups = arrangePositions(posts)
        guard grouping == .none, let order = groups.first?.positions, order.count == posts.count else {
            return groups.map { group in PostGroup(name: group.name, posts: group.positions.map { posts[$0] }) }
        }
        var posts = posts
        posts.permute(to: order)
        return [PostGroup(name: "", posts: posts)]
    }

    /// The groups as positions in `posts`, of those among `candidates` (all when nil): what
    /// `ui` shows without copying a post. The positions are sorted, not the posts: a merge
    /// sort moves its elements many times, and a post is six strings to copy and release.
    /// Each post's sort key is made once (a title lowercased at each comparison was 3.4 million
    /// lowercasings for 100,000 posts).
    public func arrangePositions(_ posts: [PostMetadata], among candidates: [Int]? = nil) -> [(name: String, positions: [Int])] {
        let sorted = sortedPositions(posts, candidates ?? Array(posts.indices))
        switch grouping {
        case .none:
            return [("", sorted)]
        case .author:
            return Self.grouped(sorted) { posts[$0].author.name }
        case .feed:
            return Self.grouped(sorted) { posts[$0].feed ?? "" }
        case .tag:
            return Self.grouped(sorted) { feedTags[posts[$0].feed ?? ""] ?? "" }
        case .month:
            var byMonth: [Int: [Int]] = [:]
            for position in sorted { byMonth[posts[position].publishDate.map(monthKey) ?? Self.unknownMonth, default: []].append(position) }
            return byMonth.keys.sorted(by: >).map { (Self.monthName($0), byMonth[$0]!) }
        }
    }

    /// `positions` in groups by `name`, the groups A→Z; two names are one group when their
    /// bytes are (as the library's SQL groups them: `é` and `e` + U+0301 are two authors).
    static func grouped(_ positions: [Int], by name: (Int) -> String) -> [(name: String, positions: [Int])] {
        var groups: [[UInt8]: (name: String, positions: [Int])] = [:]
        for position in positions {
            let text = name(position)
            groups[Array(text.utf8), default: (text, [])].positions.append(position)
        }
        return groups.values.sorted { alphabetical($0.name, $1.name) }
    }

    /// `positions` in the order inside a group, as `inGroupOrder` orders their posts.
    func sortedPositions(_ posts: [PostMetadata], _ positions: [Int]) -> [Int] {
        let ids = posts.map(\.id)
        let order: (Int, Int) -> Bool?
        switch sorting {
        case .date:
            let dates = posts.map(Self.dateKey)
            order = { dates[$0] != dates[$1] ? dates[$0] > dates[$1] : nil }
        case .title, .author:
            let texts = sorting == .title ? posts.map(\.title) : posts.map(\.author.name)
            let folded = texts.map { $0.lowercased() }
            order = { Self.bytewise(folded[$0], folded[$1]) ?? Self.bytewise(texts[$0], texts[$1]) }
        }
        return positions.sorted { a, b in
            let compared = order(a, b)
            guard let forward = compared ?? Self.bytewise(ids[a], ids[b]) else { return false }
            return reversed ? !forward : forward
        }
    }

    /// The order inside a group; `--reverse` turns it around exactly, ties included. The
    /// definition, one pair at a time: the code sorts with keys made once (`sortedPositions`),
    /// and PostOrderingTests checks that both give the same order.
    func inGroupOrder(_ a: PostMetadata, _ b: PostMetadata) -> Bool {
        guard let forward = compare(a, b) ?? Self.bytewise(a.id, b.id) else { return false }
        return reversed ? !forward : forward
    }

    /// true when `a` comes first, false when `b` does, nil on a tie.
    private func compare(_ a: PostMetadata, _ b: PostMetadata) -> Bool? {
        switch sorting {
        case .date:
            if Self.dateKey(a) != Self.dateKey(b) { return Self.dateKey(a) > Self.dateKey(b) }
        case .title:
            if let order = Self.alphabeticalOrder(a.title, b.title) { return order }
        case .author:
            if let order = Self.alphabeticalOrder(a.author.name, b.author.name) { return order }
        }
        return nil
    }

    /// A→Z ignoring case first, then exact, so "apple" and "Apple" sit together; each by its
    /// UTF-8 bytes (code point order), a total order, as SQLite's sorter orders the library.
    /// (Swift's own `<` is not one for text not in NFC: it calls `e` + U+0301 + "3" neither
    /// before nor after "é33".)
    static func alphabeticalOrder(_ a: String, _ b: String) -> Bool? {
        bytewise(a.lowercased(), b.lowercased()) ?? bytewise(a, b)
    }

    /// Whether `a`'s UTF-8 comes before `b`'s; nil when they are the same bytes.
    static func bytewise(_ a: String, _ b: String) -> Bool? {
        var (a, b) = (a, b)
        return a.withUTF8 { left in
            b.withUTF8 { right in
                let common = min(left.count, right.count)
                if common > 0, let l = left.baseAddress, let r = right.baseAddress {
                    let order = memcmp(l, r, common)
                    if order != 0 { return order < 0 }
                }
                return left.count == right.count ? nil : left.count < right.count
            }
        }
    }

    static func alphabetical(_ a: String, _ b: String) -> Bool { alphabeticalOrder(a, b) ?? false }

    /// A post of unknown date sorts as the oldest.
    static func dateKey(_ post: PostMetadata) -> Double { post.publishDate?.timeIntervalSince1970 ?? -.infinity }

    /// The month key of the posts whose date is unknown: after every month.
    static let unknownMonth = Int.min

    /// year × 12 + month, in the reader's zone.
    func monthKey(_ date: Date) -> Int {
        let since1970 = date.timeIntervalSince1970.rounded(.down)
        // Beyond any date ISO 8601 text can name; kept out of Int's range checks.
        let clamped = Int(min(max(since1970, -1e15), 1e15))
        let local = clamped + utcOffset(date)
        var seconds = time_t(local)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return (Int(parts.tm_year) + 1900) * 12 + Int(parts.tm_mon)
    }

    static let monthNames = ["January", "February", "March", "April", "May", "June", "July",
                             "August", "September", "October", "November", "December"]

    /// "August 2018"
    /// Floor division: a key before year 0 (a date late on 31 December of year 0 in a zone
    /// west of UTC) is a negative number whose month must still be 0–11.
    static func monthName(_ key: Int) -> String {
        if key == unknownMonth { return "Unknown date" }
        let month = ((key % 12) + 12) % 12
        return "\(monthNames[month]) \((key - month) / 12)"
    }
}

extension Array {
    /// Puts the elements in `order` in place: afterwards `self[i]` is what was at `order[i]`
    /// (`order` holds each index once). Each cycle of the permutation is walked with swaps,
    /// so no element is copied and none retained or released.
    mutating func permute(to order: [Int]) {
        precondition(order.count == count, "a permutation of every index")
        var placed = [Bool](repeating: false, count: count)
        for start in indices where !placed[start] {
            var current = start
            while true {
                placed[current] = true
                let next = order[current]
                if next == start { break }
                swapAt(current, next)
                current = next
            }
        }
    }
}
