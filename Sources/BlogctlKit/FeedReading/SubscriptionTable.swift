import FoundationEssentials
import ToolboxKit
import BlogctlEngines

/// `blogctl feeds`: each subscription's name, URL, entries, unread entries, last update and last
/// error, from the cache alone (what the last `list` kept).
public enum SubscriptionTable {
    public struct Row: Encodable, Sendable {
        public let name: String
        public let url: String
        public let entries: Int
        public let unread: Int
        public let updated: Date?
        public let error: String?
    }

    /// Every row from one query over the library (`Library.counts`); a library that cannot
    /// be read is the error.
    public static func rows(_ subscriptions: [Subscription], environment: [String: String] = Environment.current) throws(ToolError) -> [Row] {
        let servers = subscriptions.map { Subscription.server(for: $0.url) }
        let counts = try Library.standard(environment: environment).acrossFeeds.counts(of: servers.compactMap { $0 })
        return zip(subscriptions, servers).map { subscription, server in
            guard let server else {
                return Row(name: subscription.title, url: subscription.url, entries: 0, unread: 0, updated: nil, error: "not a URL")
            }
            let known = counts[server.folderName]
            let name = subscription.name(server: server, feedTitle: known?.source.kind == .feed ? known?.source.title : nil)
            return Row(name: name, url: ServerURL.redactedIfCredentials(subscription.url), entries: known?.entries ?? 0,
                       unread: known?.unread ?? 0, updated: known?.source.listedAt,
                       error: known?.source.gone == true ? "gone (410), no longer asked; blogctl feeds remove removes it"
                           : known?.source.lastError)
        }
    }

    /// A query feed's row: its entries among every subscription's in the library, and how
    /// many are unread; its URL is its `query:` line's, as the urls file has it.
    public static func rows(_ queries: [QueryFeed], of subscriptions: [Subscription],
                            environment: [String: String] = Environment.current) throws(ToolError) -> [Row] {
        guard !queries.isEmpty else { return [] }
        let entries = try filtered(subscriptions, environment: environment)
        return queries.map { query in
            let matcher = FilterMatcher(query.expression)
            var count = 0, unread = 0
            for entry in entries where matcher.matches(entry.subject) {
                count += 1
                if !entry.read { unread += 1 }
            }
            return Row(name: query.name, url: "query:" + query.name, entries: count, unread: unread, updated: nil, error: nil)
        }
    }

    /// A query feed's entries, newest first: every subscription's that its expression keeps,
    /// each with the URL of the subscription it is of.
    public static func entries(of query: QueryFeed, in subscriptions: [Subscription],
                               environment: [String: String] = Environment.current) throws(ToolError)
        -> [(post: PostMetadata, read: Bool, url: String)] {
        let matcher = FilterMatcher(query.expression)
        let kept = try filtered(subscriptions, environment: environment).filter { matcher.matches($0.subject) }
        // Stable, and undated entries last, as `list --sort date` puts them.
        return kept.enumerated().sorted { left, right in
            let (a, b) = (left.element.post.publishDate, right.element.post.publishDate)
            if a != b { return (a ?? .distantPast) > (b ?? .distantPast) }
            return left.offset < right.offset
        }.map { ($0.element.post, $0.element.read, $0.element.url) }
    }

    /// Every entry of `subscriptions` in the library, as the filter language sees it.
    private static func filtered(_ subscriptions: [Subscription], environment: [String: String])
        throws(ToolError) -> [(subject: FilterSubject, post: PostMetadata, read: Bool, url: String)] {
        let servers = subscriptions.compactMap { subscription in
            Subscription.server(for: subscription.url).map { (server: $0, subscription: subscription) }
        }
        let now = Date()
        return try Library.standard(environment: environment).acrossFeeds.entries(of: servers.map(\.server)).map { entry in
            let (server, subscription) = servers[entry.source]
            let subject = FilterSubject(post: entry.post, read: entry.read, flags: entry.flags, feedTitle: subscription.title,
                                        feedURL: server.description, tags: subscription.tags, now: now)
            return (subject, entry.post, entry.read, subscription.url)
        }
    }

    /// A table on a terminal, `NAME<TAB>URL<TAB>ENTRIES<TAB>UNREAD<TAB>UPDATED<TAB>ERROR` piped
    /// (dates in ISO 8601 UTC, empty when never), a JSON array with `--json`.
    /// A row's error as the table shows it: without the ` (URL)` that ends most errors, when
    /// it is the row's own URL (its column shows it); piped and in JSON it stays whole.
    static func shortError(_ row: Row) -> String {
        guard let error = row.error else { return "" }
        // By bytes: a combining mark after the `)` must not make it another suffix.
        let suffix = Array((" (" + row.url + ")").utf8)
        guard error.utf8.count > suffix.count, error.utf8.suffix(suffix.count).elementsEqual(suffix) else { return error }
        return String(decoding: error.utf8.dropLast(suffix.count), as: UTF8.self)
    }

    public static func render(_ rows: [Row], mode: OutputMode, width: Int = Terminal.width()) -> String {
        if mode == .json { return String(decoding: JSONCoding.encode(rows, pretty: true), as: UTF8.self) + "\n" }
        // On a terminal the URL gives way first (cut in its middle: both ends tell feeds
        // apart), then the name, and the error last: it is what the user reads the table for.
        var table = Table(columns: ["NAME", "URL", "ENTRIES", "UNREAD", "UPDATED", "ERROR"],
                          fits: [.shrink(order: 1, minimum: 12), .shrink(order: 0, minimum: 20, middle: true), .keep, .keep,
                                 .keep, .shrink(order: 2, minimum: 12)], rows: [])
        for row in rows {
            table.append([row.name, row.url, String(row.entries), String(row.unread),
                          row.updated.map { mode == .table ? DateDisplay.human($0) : ISO8601.format($0) } ?? (mode == .table ? "never" : ""),
                          mode == .table ? shortError(row) : row.error ?? ""])
        }
        return table.render(mode, width: width)
    }
}
