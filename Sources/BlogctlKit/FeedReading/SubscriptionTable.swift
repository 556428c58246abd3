import FoundationEssentials
import ToolboxKit

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

    public static func rows(_ subscriptions: [FeedSubscription]) -> [Row] {
        subscriptions.map { subscription in
            guard let server = try? ServerURL(subscription.url, allowingQuery: true) else {
                return Row(name: subscription.title, url: subscription.url, entries: 0, unread: 0, updated: nil, error: "not a URL")
            }
            let listing = ((try? PostCache.standard(server: server).savedListing()) ?? nil) ?? []
            let marks = (try? ReadMarks.standard(server: server).load()) ?? ReadMarks.IDs()
            let name = subscription.name(server: server)
            return Row(name: name, url: ServerURL.redactedIfCredentials(subscription.url), entries: listing.count,
                       unread: listing.count { !marks.contains($0.id) },
                       updated: FeedHealth.lastUpdate(server: server),
                       error: FeedHealth.isGone(server: server) ? "gone (410), no longer asked; blogctl feeds remove removes it"
                           : FeedHealth.lastError(server: server))
        }
    }

    /// A table on a terminal, `NAME<TAB>URL<TAB>ENTRIES<TAB>UNREAD<TAB>UPDATED<TAB>ERROR` piped
    /// (dates in ISO 8601 UTC, empty when never), a JSON array with `--json`.
    public static func render(_ rows: [Row], mode: OutputMode) -> String {
        if mode == .json { return String(decoding: JSONCoding.encode(rows, pretty: true), as: UTF8.self) + "\n" }
        var table = Table(columns: ["NAME", "URL", "ENTRIES", "UNREAD", "UPDATED", "ERROR"])
        for row in rows {
            table.append([row.name, row.url, String(row.entries), String(row.unread),
                          row.updated.map { mode == .table ? DateDisplay.human($0) : ISO8601.format($0) } ?? (mode == .table ? "never" : ""),
                          row.error ?? ""])
        }
        return table.render(mode)
    }
}
