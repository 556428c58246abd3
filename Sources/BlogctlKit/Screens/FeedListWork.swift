import ScreenKit
import ToolboxKit
import BlogctlEngines

/// The work `FeedList`'s commands ask for, done where it may wait (the subscriptions file, the
/// refresh, the library, each open feed's own work), and the messages that say what came of
/// it: the screen stays a model of what is shown.
public enum FeedListWork {
    public struct Context: Sendable {
        public let common: CommonOptions
        public let arrangementPath: String
        /// How many hosts are asked at once when the feeds refresh.
        public let jobs: Int

        public init(common: CommonOptions, arrangementPath: String, jobs: Int = 8) {
            self.common = common
            self.arrangementPath = arrangementPath
            self.jobs = jobs
        }
    }

    /// Runs `blogctl ui` over the subscriptions until the user quits; returns the exit status.
    public static func run(_ context: Context) async throws(ToolError) -> Int32 {
        let program = FeedList(arrangement: Arrangement.load(from: context.arrangementPath))
        return try await ScreenRunner.exitStatus(program, color: Terminal.colorEnabled()) { command, poster in
            await perform(command, context: context, poster: poster)
        }
    }

    static func perform(_ command: FeedList.Command, context: Context, poster: ScreenRunner.Poster<FeedList.Message>) async {
        switch command {
        case .refreshFeeds:
            // Read again each time: a refresh may have moved a feed (301) in the file.
            let file = Subscriptions.standard()
            guard let subscriptions = try? file.load() else { return }
            // Query feeds after the feeds, as `feeds` lists them (one that cannot be used is
            // said by `list` and `feeds`, with the rest of the file's problems).
            let queries = (try? file.queries()) ?? []
            poster.post(.feeds(rows(subscriptions, queries: queries), refreshing: true, failed: nil))
            // Nothing may write to the terminal under the screen: what a feed had wrong shows
            // in its row (its last error), not on stderr.
            let refreshed = await SubscriptionListing.refresh(subscriptions, jobs: context.jobs, offline: false,
                                                          common: context.common, warn: { _ in })
            guard !Task.isCancelled else { return }
            // A move is said once here too, on the status line, where list says it on stderr.
            var said: [String] = []
            SubscriptionListing.followMoves(refreshed, warn: { said.append($0) })
            let now = (try? file.load()) ?? subscriptions
            poster.post(.feeds(rows(now, queries: queries), refreshing: false, failed: refreshed.count { $0.error != nil }))
            if !said.isEmpty { poster.post(.said(said.joined(separator: "; "))) }
        case .markRead(let urls):
            do {
                let library = try Library.standard()
                for url in urls {
                    let server = try Subscription.requiredServer(for: url)
                    _ = try library.mark(try library.ids(of: server) ?? [], read: true, server: server)
                }
                poster.post(.markedRead(nil))
            } catch {
                poster.post(.markedRead(error))
            }
        case .search(let query):
            let (result, urls) = FeedSearch.search(query.split(separator: " ").map(String.init))
            poster.post(.found(query: query, result, urls: urls))
        case .queryFeed(let name, let names):
            let (result, urls) = FeedSearch.entries(ofQueryFeed: name, names: names)
            poster.post(.found(query: "query:" + name, result, urls: urls))
        case .entries(let url, let opening, let inner):
            let entriesPoster = poster.wrapping { FeedList.Message.entries(opening: opening, $0) }
            do {
                let server = try Subscription.requiredServer(for: url)
                try await context.common.withClient(tool: .blogctl, server: server, waitSpinner: false) { api in
                    let client = BlogClient(api: api, warn: { _ in })
                    client.assumeFeed()
                    let browserContext = PostBrowserWork(client: client, cache: try PostCache.standard(server: server),
                                                             marks: ReadMarks.standard(server: server), arrangementPath: context.arrangementPath,
                                                             common: context.common)
                    await browserContext.perform(inner, poster: entriesPoster)
                }
            } catch {
                // No client for this feed (its URL, the proxy's settings): the list says why.
                if case .loadList = inner { entriesPoster.post(.listFailed(error as? ToolError ?? .tryLater(String(describing: error)))) }
            }
        }
    }

    /// The feed list's rows, from the cache (what the last refresh kept), the query feeds last.
    static func rows(_ subscriptions: [Subscription], queries: [QueryFeed]) -> [FeedRow] {
        let queryRows = ((try? SubscriptionTable.rows(queries, of: subscriptions)) ?? []).map { row in
            FeedRow(name: row.name, url: row.url, entries: row.entries, unread: row.unread, tags: queries.first { "query:" + $0.name == row.url }?.tags ?? [])
        }
        return rows(subscriptions) + queryRows
    }

    static func rows(_ subscriptions: [Subscription]) -> [FeedRow] {
        let table: [SubscriptionTable.Row]
        do { table = try SubscriptionTable.rows(subscriptions) } catch {
            // The library cannot be read: each feed says why, and still opens.
            table = subscriptions.map { .init(name: $0.title, url: ServerURL.redactedIfCredentials($0.url), entries: 0, unread: 0,
                                              updated: nil, error: error.message) }
        }
        // Named as list names them: two feeds with one title are "Name" and "Name (2)".
        let names = SubscriptionListing.uniqueNames(table.map { $0.name.isEmpty ? $0.url : $0.name })
        return zip(zip(subscriptions, table), names).map { pair, name in
            let (subscription, row) = pair
            return FeedRow(name: name, url: subscription.url, entries: row.entries, unread: row.unread, error: row.error, tags: subscription.tags)
        }
    }
}
