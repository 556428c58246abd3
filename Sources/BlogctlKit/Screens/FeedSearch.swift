import ScreenKit
import ToolboxKit

/// What `/` then Enter on the feed list found, as `blogctl search` finds it over every
/// subscription: entries of every feed, best first, each with the URL of the feed it is of,
/// in a list of their own that replaces the feeds until Esc (newsboat's search from the feed
/// list).
struct FeedSearch: Sendable {
    var results: SearchResults
    /// The feed of each hit, by its subscription's URL ("" for a feed no longer subscribed).
    private(set) var urls: [String] = []

    init(query: String) { results = SearchResults(query: query) }

    var query: String { results.query }

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
            let hits = try SubscribedSearch.search(subscriptions, words: words, limit: 200, marks: SearchQuery.marks, centred: false)
            var bySource: [String: String] = [:]
            for subscription in subscriptions {
                guard let server = try? ServerURL(subscription.url, allowingQuery: true), bySource[server.folderName] == nil else { continue }
                bySource[server.folderName] = subscription.url
            }
            return (.success(hits), hits.map { bySource[$0.source] ?? "" })
        } catch {
            return (.failure(error), [])
        }
    }

    static let hints = FeedList.keys.hints(where: { [.open, .filter, .back, .quit].contains($0) },
                                           hint: { $0 == .open ? "read" : $0 == .filter ? "search again" : $0 == .back ? "the feeds" : nil })
}
