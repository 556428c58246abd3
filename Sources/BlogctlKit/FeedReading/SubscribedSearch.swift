import ToolboxKit

/// `search` without a server, over every subscribed feed's index: each feed searched as one
/// server is, the hits merged best first (a word in the title before one in the body, whatever
/// the feed), feeds in subscription order within a rank, each hit naming its feed.
public enum SubscribedSearch {
    public static func search(_ subscriptions: [FeedSubscription], words: [String], limit: Int, marks: (String, String),
                              centred: Bool) -> [SearchIndex.Hit] {
        let servers = subscriptions.map { try? ServerURL($0.url, allowingQuery: true) }
        let names = SubscribedFeeds.uniqueNames(zip(subscriptions, servers).map { $0.name(server: $1) })
        var hits: [SearchIndex.Hit] = []
        for (server, name) in zip(servers, names) {
            // A feed never listed has no index yet: nothing of it to find, and nothing made.
            guard let server, let cache = try? PostCache.standard(server: server), FileTrust.exists(cache.indexPath),
                  let found = try? cache.search(words, limit: limit, marks: marks, centred: centred) else { continue }
            hits += found.map { var hit = $0; hit.feed = name; return hit }
        }
        // A stable sort: within a rank, the feeds' order and each feed's own.
        return Array(hits.enumerated().sorted { ($0.element.rank, $0.offset) < ($1.element.rank, $1.offset) }.map(\.element).prefix(limit))
    }
}
