import Synchronization
import ToolboxKit
import BlogctlEngines

/// `prefetch` without a server, over every subscribed feed: each feed listed and its bodies
/// fetched as one server's are, one feed after another (each `jobs` posts at a time); a feed
/// that cannot be listed fails alone, named once on stderr. Each result goes to `report`, with
/// its feed's name, as it is known; the feeds that failed are counted.
public enum SubscriptionPrefetch {
    public static func run(_ subscriptions: [Subscription], jobs: Int, maxSize: Int, common: CommonOptions,
                           progress: @escaping @Sendable (_ done: Int, _ total: Int) -> Void,
                           report: @escaping @Sendable (Prefetcher.Result) -> Void) async -> Int {
        var failedFeeds = 0
        var before = 0
        let names = SubscriptionListing.uniqueNames(subscriptions.map { $0.name(server: Subscription.server(for: $0.url)) })
        for (subscription, name) in zip(subscriptions, names) {
            do {
                let server = try Subscription.requiredServer(for: subscription.url)
                guard !FeedHealth.isGone(server: server) else { continue }
                let cache = try PostCache.standard(server: server)
                let counted = Count()
                try await common.withClient(tool: .blogctl, server: server, waitSpinner: false) { api in
                    try await Prefetcher(cache: cache, client: BlogClient(api: api), jobs: jobs, maxSize: maxSize)
                        .run(warn: { Tool.blogctl.warn($0) }, progress: { [before] done, total in progress(before + done, before + total) }) {
                            counted.add()
                            var result = $0
                            result.feed = name
                            report(result)
                        }
                }
                before += counted.value
            } catch {
                failedFeeds += 1
                Tool.blogctl.warn("\(name): \((error as? ToolError)?.message ?? String(describing: error))")
            }
        }
        return failedFeeds
    }

    /// The posts of one feed reported so far: where the next feed's progress starts.
    private final class Count: Sendable {
        private let count = Mutex(0)
        func add() { count.withLock { $0 += 1 } }
        var value: Int { count.withLock { $0 } }
    }
}
