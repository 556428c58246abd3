import ToolboxKit

/// `prefetch` without a server, over every subscribed feed: each feed listed and its bodies
/// fetched as one server's are, one feed after another (each `jobs` posts at a time); a feed
/// that cannot be listed fails alone, named once on stderr.
public enum SubscribedPrefetch {
    public static func run(_ subscriptions: [FeedSubscription], jobs: Int, maxSize: Int, common: CommonOptions,
                           progress: @escaping @Sendable (_ done: Int, _ total: Int) -> Void) async -> (results: [Prefetcher.Result], failedFeeds: Int) {
        var results: [Prefetcher.Result] = []
        var failedFeeds = 0
        let names = SubscribedFeeds.uniqueNames(subscriptions.map { $0.name(server: try? ServerURL($0.url, allowingQuery: true)) })
        for (subscription, name) in zip(subscriptions, names) {
            let before = results.count
            do {
                let server = try ServerURL(subscription.url, allowingQuery: true)
                guard !FeedHealth.isGone(server: server) else { continue }
                let cache = try PostCache.standard(server: server)
                let fetched = try await common.withClient(tool: .blogctl, server: server, waitSpinner: false) { api in
                    let client = BlogClient(api: api)
                    client.assumeFeed()
                    return try await Prefetcher(cache: cache, client: client, jobs: jobs, maxSize: maxSize)
                        .run(warn: { Tool.blogctl.warn($0) }) { done, total in progress(before + done, before + total) }
                }
                results += fetched.map { var result = $0; result.feed = name; return result }
            } catch {
                failedFeeds += 1
                Tool.blogctl.warn("\(name): \((error as? ToolError)?.message ?? String(describing: error))")
            }
        }
        return (results, failedFeeds)
    }
}
