import ToolboxKit
import BlogctlEngines

/// `search` without a server, over every subscribed feed: one search of the one index, limited
/// to the subscribed feeds' entries, best first (a word in the title before one in the body,
/// whatever the feed), each hit naming its feed. Each feed's listing and cached bodies are
/// taken into the index first when it lacks them (what is known of every feed is read at once).
public enum SubscriptionSearch {
    public static func search(_ subscriptions: [Subscription], words: [String], limit: Int, marks: (String, String),
                              centred: Bool, environment: [String: String] = Environment.current) throws(ToolError) -> [SearchIndex.Hit] {
        let servers = subscriptions.map { Subscription.server(for: $0.url) }
        let names = SubscriptionListing.uniqueNames(zip(subscriptions, servers).map { $0.name(server: $1) })
        var caches: [(cache: PostCache, name: String)] = []
        for (server, name) in zip(servers, names) {
            guard let server else { continue }
            caches.append((try PostCache.standard(server: server, environment: environment), name))
        }
        guard let first = caches.first?.cache else { return [] }
        let feedNames = Dictionary(caches.map { ($0.cache.indexSource, $0.name) }, uniquingKeysWith: { first, _ in first })
        try LocalFile.privateDirectory(Paths(environment: environment).cache(.blogctl))
        func search(_ index: SearchIndex) throws(ToolError) -> [SearchIndex.Hit] {
            let library = try Library.standard(environment: environment)
            let sources = try library.sources(of: caches.compactMap { $0.cache.owner?.server })
            let taken = try index.listingFingerprints()
            let filled = try index.sourcesWithBodies()
            for (cache, _) in caches {
                if !filled.contains(cache.indexSource) { try cache.reindex(index) }
                if let source = sources[cache.indexSource] {
                    try cache.indexListing(index, known: (source, taken[cache.indexSource]))
                }
            }
            return try index.search(words, sources: Array(feedNames.keys), limit: limit, marks: marks, centred: centred)
        }
        var hits: [SearchIndex.Hit]
        do {
            hits = try search(SearchIndex(path: first.indexPath))
        } catch where error == SearchIndex.damaged(first.indexPath) {
            hits = try search(SearchIndex(path: first.indexPath, fresh: true))
        }
        for position in hits.indices { hits[position].feed = feedNames[hits[position].source] }
        return hits
    }

    /// How much of each id the table shows: as `list` over the same feeds shows it, so what it
    /// shows, typed back to `read`, names one entry.
    public static func idPrefixLength(_ subscriptions: [Subscription],
                                      environment: [String: String] = Environment.current) throws(ToolError) -> Int {
        try Library.standard(environment: environment).acrossFeeds.idPrefixLength(of: subscriptions.compactMap { Subscription.server(for: $0.url) })
    }
}
