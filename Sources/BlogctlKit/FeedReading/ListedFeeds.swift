import ToolboxKit
import BlogctlEngines

/// Which feeds a `list` reads and what it keeps of them: `--tag` narrows the subscriptions,
/// `--query` takes a query feed of the urls file, `--filter` its own expression (both must
/// keep an entry). With a server named there are no subscriptions, and neither `--tag` nor
/// `--query` means anything.
public struct ListedFeeds: Sendable {
    /// The subscriptions listed, nil when a server is named.
    public let subscriptions: [Subscription]?
    public let expression: FilterExpression?
    /// Each subscription's tags, by its server's `folderName` (`ListRun`'s, for `tags`).
    public let tags: [String: [String]]

    public init(_ inUse: [Subscription]?, tag: String?, query: String?, filter: String?,
                queries: () throws(ToolError) -> [QueryFeed] = { () throws(ToolError) in try Subscriptions.standard().queries() }) throws(ToolError) {
        var subscriptions = inUse
        if let tag {
            guard let all = inUse else { throw .usage("--tag chooses among the subscriptions: name no server (--server, BLOGCTL_SERVER, config)") }
            subscriptions = all.filter { $0.has(tag: tag) }
            if subscriptions?.isEmpty != false {
                let tags = Array(Set(all.flatMap(\.tags))).sorted()
                throw .notFound(what: "a subscription with the tag \(Terminal.quote(tag))"
                    + (tags.isEmpty ? " (none has a tag)" : " (the tags: \(tags.map { Terminal.quote($0) }.joined(separator: ", ")))"))
            }
        }
        var expression = try filter.map { text throws(ToolError) in try FilterExpression.parse(text) }
        if let query {
            guard inUse != nil else { throw .usage("--query reads every subscription: name no server (--server, BLOGCTL_SERVER, config)") }
            let known = try queries()
            guard let found = known.first(where: { $0.name.utf8.elementsEqual(query.utf8) }) else {
                throw .notFound(what: "query feed \(Terminal.quote(query)) in the urls file"
                    + (known.isEmpty ? " (it has none)" : " (it has \(known.map { Terminal.quote($0.name) }.joined(separator: ", ")))"))
            }
            expression = expression.map { .and([found.expression, $0]) } ?? found.expression
        }
        var tags: [String: [String]] = [:]
        for subscription in subscriptions ?? [] {
            if let server = Subscription.server(for: subscription.url) { tags[server.folderName] = subscription.tags }
        }
        self.subscriptions = subscriptions
        self.expression = expression
        self.tags = tags
    }
}
