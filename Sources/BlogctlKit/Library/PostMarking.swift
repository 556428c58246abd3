import ToolboxKit
import BlogctlEngines

/// `blogctl mark`: ids checked against what the library keeps, then marked in it. With a
/// server named, that server's posts; with subscriptions and none named, each id in the feed
/// whose entry it is (one query a id, as `read` finds it), `--all` every subscribed feed's.
public enum PostMarking {
    /// Marks `ids` (or, with `all`, every kept post) read or unread; how many were chosen.
    @discardableResult
    public static func mark(_ ids: [String], all: Bool, read: Bool, server: String?) throws -> Int {
        let ids = try ids.map { id throws(ToolError) in try ResourceID.validate(id, kind: "post id") }
        let library = try Library.standard()
        guard let subscriptions = try SubscriptionListing.inUse(server: server) else {
            let server = try ServerOption.resolved(server, tool: .blogctl)
            return try mark(ids, all: all, read: read, in: server, library)
        }
        let servers = subscriptions.compactMap { Subscription.server(for: $0.url) }
        if all {
            var count = 0
            for server in servers { count += try mark([], all: true, read: read, in: server, library, required: false) }
            return count
        }
        var byFeed: [Int: [String]] = [:]
        for id in ids {
            let (exact, _) = try library.acrossFeeds.holders(of: id, among: servers)
            guard !exact.isEmpty else { throw ToolError.missing("no post \(Terminal.quote(id)) in the subscribed feeds' library; nothing was marked") }
            guard exact.count == 1 else {
                throw ToolError.usage("post \(Terminal.quote(id)) is in \(exact.count) feeds; name one with --server URL; nothing was marked")
            }
            byFeed[exact[0], default: []].append(id)
        }
        for (feed, ids) in byFeed { _ = try library.mark(ids, read: read, server: servers[feed]) }
        return ids.count
    }

    /// One server's marks: `ids` must be kept of it (when anything is), `all` takes every one.
    static func mark(_ ids: [String], all: Bool, read: Bool, in server: ServerURL, _ library: Library,
                     required: Bool = true) throws(ToolError) -> Int {
        let kept = try library.ids(of: server)
        let chosen: [String]
        if all {
            guard let kept else {
                if required { throw .missing("no saved list to mark: blogctl list saves one") }
                return 0
            }
            chosen = kept
        } else {
            // Without a saved list there is nothing to check against: the ids are taken.
            if let kept {
                let known = ReadMarks.IDs(kept)
                if let unknown = ids.first(where: { !known.contains($0) }) {
                    throw .missing("no post \(unknown) in the list blogctl list saved; nothing was marked")
                }
            }
            chosen = ids
        }
        _ = try library.mark(chosen, read: read, server: server)
        return chosen.count
    }
}
