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

    /// Every row from one query over the library (`Library.counts`); a library that cannot
    /// be read is the error.
    public static func rows(_ subscriptions: [FeedSubscription], environment: [String: String] = Environment.current) throws(ToolError) -> [Row] {
        let servers = subscriptions.map { try? ServerURL($0.url, allowingQuery: true) }
        let counts = try Library.standard(environment: environment).counts(of: servers.compactMap { $0 })
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
