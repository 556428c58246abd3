import FoundationEssentials
import ToolboxKit

/// `blogctl list` as one step: the read marks, the listing from the server written into the
/// library, then read from it filtered and in order (`stream`), as text for the output mode.
public struct ListRun: Sendable {
    public let filter: PostFilter
    public let ordering: PostOrdering
    public let mode: OutputMode
    /// The tags of each subscribed feed, by its server's `folderName`, for `--filter`'s `tags`
    /// and `--group-by tag` (a feed's first tag is its group).
    public let tags: [String: [String]]

    public init(filter: PostFilter, ordering: PostOrdering, mode: OutputMode, tags: [String: [String]] = [:]) {
        self.filter = filter
        self.ordering = ordering
        self.mode = mode
        self.tags = tags
    }

    /// The listing as `list` prints it. Damaged read marks are an error only when they are
    /// needed to filter (`--unread`); otherwise a warning, and no marks are shown.
    /// The marks and the cache are the ones `environment` names, the cache `server`'s.
    /// With no client (`--offline`), the list the last `list` or `ui` saved from `server`.
    /// The text goes to `write` in pieces (`PostListing.render`): a pipe gets a long list
    /// without the whole text held.
    public func run(_ client: BlogClient?, server: ServerURL, environment: [String: String] = Environment.current,
                    write: (String) -> Void) async throws(ToolError) {
        var known: ReadMarks.IDs?
        do {
            known = try ReadMarks.standard(server: server, environment: environment).load()
        } catch {
            if filter.unreadOnly { throw error }
            Tool.blogctl.warn(error.message)
        }
        // Online, the server's listing goes into the library first (a feed's as it is parsed,
        // none of it held), and is read from there, as offline.
        if let client { _ = try await client.writeListing(warn: { Tool.blogctl.warn($0) }) }
        let library = try Library.standard(environment: environment)
        guard try library.source(server)?.listedAt != nil else {
            throw ToolError.missing("no saved list to show offline: blogctl list (online) saves one")
        }
        try stream(library, sources: [(server, nil)], marks: known != nil, write: write)
        await client?.settle()
    }

    /// The entries the library keeps of `sources` (each a server and the name its entries are
    /// listed under, nil for none), filtered, arranged and written as they are read: none of
    /// them held, whatever their number (a table reads them twice: once to measure its columns).
    public func stream(_ library: Library, sources: [(server: ServerURL, name: String?)], marks: Bool,
                       width: Int = Terminal.width(), bold: Bool = Terminal.colorEnabled(), write: (String) -> Void) throws(ToolError) {
        // A table shows ids as short as typing them back allows.
        let idLength = mode == .table ? try library.acrossFeeds.idPrefixLength(of: sources.map(\.server)) : nil
        var output = PostListing.Stream(mode: mode, grouped: ordering.grouping != .none, marks: marks,
                                        feeds: sources.contains { $0.name != nil }, idLength: idLength, width: width, bold: bold)
        let matcher = filter.expression.map(FilterMatcher.init)
        // What `--filter` reads of each feed: its name (else its title), URL and tags.
        var facts: [String: (title: String, url: String, tags: [String])] = [:]
        if matcher != nil {
            for (server, name) in sources where facts[name ?? ""] == nil {
                let title = name ?? ((try? library.source(server))??.title ?? "")
                facts[name ?? ""] = (title, server.description, tags[server.folderName] ?? [])
            }
        }
        let now = Date()
        func pass(_ body: (Library.ListedEntry) -> Void) throws(ToolError) {
            var shown = 0
            try library.eachEntry(of: sources, ordering: ordering, tags: tags.mapValues { $0.first ?? "" }) { entry in
                guard filter.keeps(entry.post, isRead: entry.read) else { return true }
                if let matcher {
                    let feed = facts[entry.post.feed ?? ""] ?? ("", "", [])
                    let subject = FilterSubject(post: entry.post, read: entry.read, flags: entry.flags, feedTitle: feed.title, feedURL: feed.url,
                                                tags: feed.tags, now: now)
                    guard matcher.matches(subject) else { return true }
                }
                if let limit = filter.limit, shown >= limit { return false }
                shown += 1
                body(entry)
                return true
            }
        }
        if mode == .table {
            try pass { output.measure($0.post, read: $0.read, group: $0.group) }
            output.laidOut()
        }
        try pass { output.add($0.post, read: $0.read, group: $0.group, write: write) }
        output.finish(write: write)
    }
}
