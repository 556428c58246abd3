import ToolboxKit
import BlogctlEngines

/// `blogctl feeds add`: each URL asked once before it is subscribed, and what was found said:
/// a feed (subscribed, its entries kept in the library so the first `list` is a 304), a page
/// whose feed is already subscribed (said, not added twice), or something that is not a feed
/// or cannot be reached (refused; `force` subscribes without asking).
public enum SubscriptionAdding {
    public struct Outcome: Sendable {
        public var added = 0
        /// The first URL refused, as its error: the command's exit status.
        public var refused: ToolError?
    }

    public static func add(_ urls: [String], tags: [String], force: Bool, common: CommonOptions,
                           warn: @escaping @Sendable (String) -> Void = { Tool.blogctl.warn($0) }) async throws -> Outcome {
        let file = Subscriptions.standard()
        var subscriptions = try file.load(warn: warn)
        var known = Subscriptions.identities(subscriptions)
        var outcome = Outcome()
        for url in urls.map({ $0.trimmingSpaces() }) {
            let server = try ServerURL(url, allowingQuery: true)
            let shown = Terminal.quote(ServerURL.redacted(url))
            guard !known.contains(Subscriptions.identity(server)) else {
                warn("already subscribed: \(shown)")
                continue
            }
            if !force {
                do {
                    let feed = try await probe(server, common: common, warn: warn)
                    if let feed, let feedServer = try? ServerURL(feed, allowingQuery: true),
                       known.contains(Subscriptions.identity(feedServer)) {
                        try? Library.standard().remove(server)
                        warn("\(shown): a page whose feed (\(ServerURL.redactedIfCredentials(feed))) is already subscribed; not added")
                        continue
                    }
                } catch {
                    let failure = error as? ToolError ?? .tryLater(String(describing: error))
                    warn("\(shown): \(failure.message); not subscribed (--force subscribes it without asking)")
                    outcome.refused = outcome.refused ?? failure
                    continue
                }
            }
            known.insert(Subscriptions.identity(server))
            subscriptions.append(Subscription(url: url, title: "", tags: tags))
            outcome.added += 1
        }
        try file.save(subscriptions)
        return outcome
    }

    /// `server` asked once, as a feed or a page naming one, its entries written into the
    /// library as they are read (as a refresh writes them, none held): the feed's own URL when
    /// it is not the server's (a page's feed).
    static func probe(_ server: ServerURL, common: CommonOptions,
                      warn: @escaping @Sendable (String) -> Void) async throws -> String? {
        try await common.withClient(tool: .blogctl, server: server, waitSpinner: false) { api in
            let client = BlogClient(api: api, warn: warn)
            client.assumeFeed()
            _ = try await client.writeListing(warn: warn)
            await client.settle()
            if let target = client.feedMovedTo, let refused = SubscriptionListing.pendingMoveRefused(from: server, to: target) {
                throw refused
            }
            let feed = client.feedURL.flatMap { api.server.url($0) }
            return feed == server.resource ? nil : feed
        }
    }
}
