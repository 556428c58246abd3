import FoundationEssentials
import ToolboxKit
import BlogctlEngines

/// Every subscription at once (`list` without a server): what `feeds add` and `feeds import`
/// put in the urls file, read when no server is named anywhere (no --server, no
/// BLOGCTL_SERVER or TOOLBOX_SERVER, no server in config.yml).
public enum SubscriptionListing {
    /// The subscriptions, when they are what the command should read; nil when a server is named
    /// or none is subscribed.
    public static func inUse(_ common: CommonOptions, environment: [String: String] = Environment.current) throws -> [Subscription]? {
        try inUse(server: common.server, environment: environment)
    }

    /// `warn`: where what is wrong in the urls file is said, once for each content of the file;
    /// nil under the shell's Tab, which says nothing and leaves it to be said by a command.
    public static func inUse(server: String?, environment: [String: String] = Environment.current,
                             warn: ((String) -> Void)? = { Tool.blogctl.warn($0) }) throws -> [Subscription]? {
        guard server == nil, Settings.current.text(.server) == nil,
              [Tool.blogctl.serverVariable, "TOOLBOX_SERVER"].allSatisfy({ environment[$0]?.isEmpty ?? true })
        else { return nil }
        let file = Subscriptions.standard(environment: environment)
        let subscriptions = try warn.map { warn in try file.loadSayingProblemsOnce(environment: environment, warn: warn) } ?? file.load()
        return subscriptions.isEmpty ? nil : subscriptions
    }

    /// The server of the subscribed feed whose last list has post `id` (`read`, `show`, `links`,
    /// `open` without a server): the one feed with that id, else the one with an id starting
    /// with it. nil when no subscription is in use.
    public static func server(for id: String, _ common: CommonOptions) throws -> ServerURL? {
        guard let subscriptions = try inUse(common) else { return nil }
        let feeds = subscriptions.compactMap { subscription in
            Subscription.server(for: subscription.url).map { (subscription, $0) }
        }
        let (exact, starting) = try Library.standard().acrossFeeds.holders(of: id, among: feeds.map(\.1))
        let found = exact.isEmpty ? starting : exact
        if found.count == 1 { return feeds[found[0]].1 }
        if found.isEmpty {
            throw ToolError.notFound(what: "post \(Terminal.quote(id)) in the subscribed feeds' library (blogctl list refreshes it)")
        }
        let names = found.prefix(3).map { feeds[$0].0.name(server: feeds[$0].1) }
        throw ToolError.usage("post \(Terminal.quote(id)) is in \(found.count) feeds (\(names.joined(separator: ", ")))"
            + "; name one with --server URL")
    }

    /// `blogctl feeds remove`: `feeds` (URLs or names) leave the urls file, and the library
    /// forgets their entries and marks.
    public static func unsubscribe(_ feeds: [String], environment: [String: String] = Environment.current) throws(ToolError) {
        let file = Subscriptions.standard(environment: environment)
        let before = try file.load { Tool.blogctl.warn($0) }
        let after = try Subscriptions.removing(feeds, from: before)
        try file.save(after)
        let kept = Set(after.map { Array($0.url.utf8) })
        let library = try Library.standard(environment: environment)
        for removed in before where !kept.contains(Array(removed.url.utf8)) {
            if let server = Subscription.server(for: removed.url) { try library.remove(server) }
        }
    }

    /// One feed's part of a refresh: its name and how it went. Its entries are the library's.
    public struct Refreshed: Sendable {
        public let subscription: Subscription
        public let server: ServerURL?
        public let name: String
        public let error: ToolError?
        /// Where a permanent redirect said the feed now lives.
        public var movedTo: String? = nil
        /// What the library is to record of how it went, with every feed's at once.
        var outcome: FeedHealth.Outcome? = nil

        /// The same feed under another name.
        func renamed(_ name: String) -> Refreshed {
            var renamed = Refreshed(subscription: subscription, server: server, name: name, error: error)
            renamed.movedTo = movedTo
            renamed.outcome = outcome
            return renamed
        }
    }

    /// How many requests one host gets at once: as many as a refresh makes by default
    /// (`--jobs` 8), so that a larger `--jobs` never hammers a host serving many feeds, and a
    /// host is not asked one feed at a time.
    public static let perHost = 8

    /// Each feed refreshed (its cache alone when `offline`), `jobs` at a time and at most
    /// `perHost` of one host at once (its feeds dealt into that many lanes, each lane one
    /// request after another); a feed that fails fails alone. In subscription order. `warn`
    /// hears what a feed's document had wrong (stderr for `list`; a screen cannot write there).
    public static func refresh(_ subscriptions: [Subscription], jobs: Int, offline: Bool, common: CommonOptions,
                               warn: @escaping @Sendable (String) -> Void = { Tool.blogctl.warn($0) }) async -> [Refreshed] {
        let servers = subscriptions.map { Subscription.server(for: $0.url) }
        let library = try? Library.standard()
        // Another refresh running is waited for: it will have asked the feeds by then.
        var lock: RefreshLock?
        if !offline, let library {
            lock = await RefreshLock.take(library) { warn("waiting for another blogctl to finish refreshing the library") }
        }
        defer { withExtendedLifetime(lock) {} }
        // What the library knows of every feed (its title, whether it is gone): one query.
        let known = (try? library?.sources(of: servers.compactMap { $0 })) ?? [:]
        let work = lanes(zip(subscriptions, servers).map { $1?.host ?? $0.url }, perHost: perHost)
            .map { lane in lane.map { (index: $0, subscription: subscriptions[$0]) } }
        let shared = HTTPClients()
        let done = await TaskWindow.map(work, width: jobs) { feeds in
            var results: [(Int, Refreshed)] = []
            for feed in feeds {
                let source = servers[feed.index].flatMap { known[$0.folderName] }
                results.append((feed.index, await refreshOne(feed.subscription, known: source, offline: offline, common: common,
                                                             shared: shared, warn: warn)))
            }
            return results
        }
        await shared.shutdown()
        FeedHealth.record(done.flatMap { $0 }.compactMap(\.1.outcome))
        // Each feed's name is its own: a list groups, and finds read marks, by it. Two feeds
        // that give the same title (a blog subscribed by its page and by its feed) are told
        // apart as "Name", "Name (2)".
        let feeds = done.flatMap { $0 }.sorted { $0.0 < $1.0 }.map(\.1)
        return zip(feeds, uniqueNames(feeds.map(\.name))).map { feed, name in name == feed.name ? feed : feed.renamed(name) }
    }

    /// The feeds' positions dealt into lanes, each lane one host's, a host's feeds spread over
    /// at most `perHost` lanes; lanes in the order their hosts first come, so the first
    /// subscriptions are asked first.
    static func lanes(_ hosts: [String], perHost: Int) -> [[Int]] {
        var lanesOf: [String: [Int]] = [:]
        var lanes: [[Int]] = []
        var countOf: [String: Int] = [:]
        for (index, host) in hosts.enumerated() {
            let count = countOf[host, default: 0]
            countOf[host] = count + 1
            if count < perHost {
                lanesOf[host, default: []].append(lanes.count)
                lanes.append([index])
            } else {
                lanes[lanesOf[host]![count % perHost]].append(index)
            }
        }
        return lanes
    }

    /// Each name made its own: the second "Name" is "Name (2)", the third "Name (3)".
    public static func uniqueNames(_ names: [String]) -> [String] {
        var seen: [String: Int] = [:]
        return names.map { name in
            let count = (seen[name] ?? 0) + 1
            seen[name] = count
            return count == 1 ? name : "\(name) (\(count))"
        }
    }

    /// One feed refreshed: asked conditionally, its entries written into the library when they
    /// changed (a 304 writes nothing but the time); offline, or gone, nothing asked. `known`:
    /// what the library had of it.
    static func refreshOne(_ subscription: Subscription, known: SourceRecord?, offline: Bool, common: CommonOptions,
                           shared: HTTPClients? = nil, warn: @escaping @Sendable (String) -> Void) async -> Refreshed {
        let server: ServerURL
        do { server = try Subscription.requiredServer(for: subscription.url) } catch {
            return Refreshed(subscription: subscription, server: nil, name: subscription.url, error: error)
        }
        func named(_ title: String?, error: ToolError? = nil) -> Refreshed {
            Refreshed(subscription: subscription, server: server, name: subscription.name(server: server, feedTitle: title), error: error)
        }
        if offline || known?.gone == true { return named(known?.title) }
        // A screen that opens the feed meanwhile waits for this answer (`RefreshesInFlight`).
        RefreshesInFlight.shared.begin(server.folderName)
        let refreshed = await ask(subscription, server, known: known, common: common, shared: shared, warn: warn)
        RefreshesInFlight.shared.end(server.folderName, error: refreshed.error)
        return refreshed
    }

    /// `refreshOne`'s request and what came of it.
    private static func ask(_ subscription: Subscription, _ server: ServerURL, known: SourceRecord?, common: CommonOptions,
                            shared: HTTPClients?, warn: @escaping @Sendable (String) -> Void) async -> Refreshed {
        func named(_ title: String?, error: ToolError? = nil) -> Refreshed {
            Refreshed(subscription: subscription, server: server, name: subscription.name(server: server, feedTitle: title), error: error)
        }
        do {
            let (title, movedTo) = try await common.withClient(tool: .blogctl, server: server, waitSpinner: false, shared: shared) { api in
                let client = BlogClient(api: api, warn: warn, known: known)
                client.assumeFeed()
                _ = try await client.writeListing(warn: warn)
                await client.settle()
                return (client.feedTitle, client.feedMovedTo)
            }
            var refreshed = named(title)
            refreshed.movedTo = movedTo
            if let movedTo, let target = try? ServerURL(movedTo, allowingQuery: true) {
                // Recorded now: what moves with the feed is its state after this answer. A move
                // kept pending moves nothing (its answer was not read: `FeedServer.fetch`).
                FeedHealth.record(nil, server: server)
                if pendingMove(from: server, to: target) == nil { try? Library.standard().carry(from: server, to: target) }
            } else {
                refreshed.outcome = FeedHealth.Outcome(server: server, message: nil)
            }
            return refreshed
        } catch {
            let failure = error as? ToolError ?? .tryLater(String(describing: error))
            var gone = false
            if case .httpStatus(_, 410, _) = failure { gone = true }
            // What the library keeps of it is still listed.
            var refreshed = named(known?.title, error: failure)
            refreshed.outcome = FeedHealth.Outcome(server: server, message: failure.message, gone: gone)
            return refreshed
        }
    }

    /// `list` over every subscription: what `run` makes of every feed's entries in the
    /// library, each marked read by its own feed's marks, handed to `write` as it is read; and
    /// the feeds that failed (named here, one warning each) of how many.
    public static func list(_ subscriptions: [Subscription], run: ListRun, jobs: Int, offline: Bool,
                            common: CommonOptions, write: (String) -> Void) async throws(ToolError) -> (failed: Int, total: Int) {
        // The library first: one that cannot be used is said before any feed is asked.
        let library = try Library.standard()
        let progress = ProgressDisplay(label: "refreshing feeds", enabled: common.showsProgress && !offline, unit: .items)
        progress.start()
        let refreshed = await refresh(subscriptions, jobs: jobs, offline: offline, common: common)
        progress.finish()
        let failed = refreshed.filter { $0.error != nil }
        for feed in failed { Tool.blogctl.warn("\(feed.name): \(feed.error!.message)") }
        followMoves(refreshed)
        // What the library keeps of every feed, entries that left it included, and their marks.
        try run.stream(library, sources: refreshed.compactMap { feed in feed.server.map { ($0, feed.name) } }, marks: true, write: write)
        return (failed.count, refreshed.count)
    }

    /// A feed that moved for good (301, 308) is subscribed at its new URL from now on, said
    /// once: the next refresh asks the new URL, and is not redirected. A move onto a URL
    /// already subscribed merges the two. A move that anyone on the path could have forged, or
    /// that would lose something, is not followed but kept pending and said (`pendingMove`):
    /// from a plain-http feed to another origin, or to a URL without the credentials the
    /// subscription holds. The user follows it with `feeds add`.
    static func followMoves(_ refreshed: [Refreshed], warn: (String) -> Void = { Tool.blogctl.warn($0) }) {
        let moves = refreshed.compactMap { feed in feed.movedTo.map { (feed, $0) } }
        guard !moves.isEmpty else { return }
        let file = Subscriptions.standard()
        guard var subscriptions = try? file.load() else { return }
        var changed = false
        for (feed, target) in moves {
            guard let index = subscriptions.firstIndex(where: { $0.url.utf8.elementsEqual(feed.subscription.url.utf8) }),
                  let old = feed.server, let new = try? ServerURL(target, allowingQuery: true) else { continue }
            let shown = ServerURL.redactedIfCredentials(target)
            if let reason = pendingMove(from: old, to: new) {
                FeedHealth.record("says it moved permanently to \(shown); not followed (\(reason)): blogctl feeds add it to follow",
                                  server: old)
                if (try? Library.standard().isNew(target, for: "move:" + old.folderName)) ?? true {
                    warn("\(feed.name): says it moved permanently to \(shown); not followed (\(reason)); "
                         + "blogctl feeds add \(shown) follows it")
                }
                continue
            }
            changed = true
            if Subscriptions.identities(subscriptions).contains(Subscriptions.identity(new)) {
                subscriptions.remove(at: index)
                warn("\(feed.name): moved permanently to \(shown), which is subscribed already; the two are one subscription now")
            } else {
                subscriptions[index].url = target
                warn("\(feed.name): moved permanently to \(shown); subscribed there now")
            }
        }
        if changed { try? file.save(subscriptions) }
    }

    /// A feed asked for the first time (`feeds add`, `--server`) that says it moved where it is
    /// not followed without the user's word (`pendingMove`): refused, with the move said; nil
    /// for a move that is followed.
    static func pendingMoveRefused(from old: ServerURL, to target: String) -> ToolError? {
        guard let new = try? ServerURL(target, allowingQuery: true), let reason = pendingMove(from: old, to: new) else { return nil }
        return .protocolViolation(url: old.resource, detail: "it says it moved permanently to "
            + "\(Terminal.sanitizeField(ServerURL.redactedIfCredentials(target))); not followed (\(reason))")
    }

    /// Why a permanent move from `old` to `new` is not followed on the server's word alone, or
    /// nil: plain http to another origin (anyone on the path may have written that answer),
    /// or a target without the credentials the subscription holds (they would be lost).
    static func pendingMove(from old: ServerURL, to new: ServerURL) -> String? {
        if old.user != nil && new.user == nil { return "the new URL would drop the subscription's credentials" }
        if !old.isHTTPS, let from = URLReference(old.base), let to = URLReference(new.base), !from.sameOrigin(as: to),
           !(to.scheme == "https" && to.host == from.host) {
            return "another host, said over plain http"
        }
        return nil
    }
}
