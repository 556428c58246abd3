import ScreenKit
import ToolboxKit
import BlogctlEngines

/// Entries of many feeds in one list that replaces the feeds until Esc, each with the URL of
/// the feed it is of: what `/` then Enter on the feed list found, as `blogctl search` finds it
/// over every subscription (newsboat's search from the feed list), best first; or a query
/// feed's entries (its `query:` line's filter over every feed's), newest first.
struct FeedSearch: Sendable {
    var results: SearchResults
    /// The feed of each hit, by its subscription's URL ("" for a feed no longer subscribed).
    private(set) var urls: [String] = []
    /// The query feed listed, or nil for a search.
    let queryFeed: String?

    init(query: String) {
        results = SearchResults(query: query)
        queryFeed = nil
    }

    init(queryFeed name: String) {
        results = SearchResults(query: "query:" + name, nothingFound: "no entry of any feed passes this query feed's filter")
        queryFeed = name
    }

    /// What the command and its answer are matched by.
    var query: String { results.query }
    var title: String { queryFeed.map { "query feed: " + $0 } ?? "search every feed: " + query }
    var counts: String {
        let found = results.hits.map { "\($0.count) " + (queryFeed == nil ? "found · " : "entries · ") } ?? ""
        return found + (queryFeed.map { "query " + Terminal.quote($0, limit: 30) } ?? "search " + Terminal.quote(query, limit: 30))
    }

    mutating func found(_ result: Result<[SearchIndex.Hit], ToolError>, urls: [String]) {
        results.found(result, listed: [])
        self.urls = urls
    }

    /// The selected hit: the entry, and the URL of its feed.
    var selected: (url: String, post: PostMetadata)? {
        guard let index = results.list.selection, index < results.posts.count, index < urls.count, !urls[index].isEmpty else { return nil }
        return (urls[index], results.posts[index])
    }

    /// Every subscription's entries searched for `words`, the index filled first with what it
    /// lacks (as `blogctl search` does).
    static func search(_ words: [String]) -> (Result<[SearchIndex.Hit], ToolError>, urls: [String]) {
        do {
            let subscriptions = try Subscriptions.standard().load()
            let hits = try SubscriptionSearch.search(subscriptions, words: words, limit: 200, marks: SearchQuery.marks, centred: false)
            var bySource: [String: String] = [:]
            for subscription in subscriptions {
                guard let server = Subscription.server(for: subscription.url), bySource[server.folderName] == nil else { continue }
                bySource[server.folderName] = subscription.url
            }
            return (.success(hits), hits.map { bySource[$0.source] ?? "" })
        } catch {
            return (.failure(error), [])
        }
    }

    /// The entries of the query feed `name`, as hits naming their feeds (`names`: a feed's
    /// name by its URL, as the feed list shows it).
    static func entries(ofQueryFeed name: String, names: [String: String]) -> (Result<[SearchIndex.Hit], ToolError>, urls: [String]) {
        do {
            let file = Subscriptions.standard()
            let subscriptions = try file.load()
            guard let query = try file.queries().first(where: { $0.name.utf8.elementsEqual(name.utf8) }) else {
                return (.failure(.missing("no query feed \(Terminal.quote(name)) in the urls file any more")), [])
            }
            let entries = try SubscriptionTable.entries(of: query, in: subscriptions)
            let hits = entries.map { entry in
                var hit = SearchIndex.Hit(id: entry.post.id, title: entry.post.title, author: entry.post.author.name,
                                          snippet: entry.post.summary, cached: false)
                hit.feed = names[entry.url]
                return hit
            }
            return (.success(hits), entries.map(\.url))
        } catch {
            return (.failure(error), [])
        }
    }

    static let hints = FeedList.keys.hints(where: { [.open, .filter, .back, .quit].contains($0) },
                                           hint: { $0 == .open ? "read" : $0 == .filter ? "search again" : $0 == .back ? "the feeds" : nil })
}
