import ToolboxKit
import BlogctlEngines

/// What `feeds add`, `feeds remove` and `feeds import` do to a list of subscriptions. Two URLs
/// naming the same server (`ServerURL` equality: with or without a trailing slash) are one
/// subscription; so are two that differ only in the case of their scheme or host.
extension Subscriptions {
    static func same(_ subscription: Subscription, _ server: ServerURL) -> Bool {
        guard let other = Subscription.server(for: subscription.url) else { return false }
        return identity(other) == identity(server)
    }

    /// What makes two URLs one subscription, as a key: scheme and host in any case, as
    /// URLReference reads them, the path as it is without trailing slashes, and the query
    /// (`?feed=rss2` and `?feed=atom` are two feeds), as bytes (`é` and `e` + U+0301 are two
    /// paths to a server). Keys let a list of 100,000 be checked in one pass.
    static func identity(_ server: ServerURL) -> [UInt8] {
        Array(((URLReference(server.base)?.absolute ?? server.base) + (server.query.map { "?" + $0 } ?? "")).utf8)
    }

    static func identities(_ subscriptions: [Subscription]) -> Set<[UInt8]> {
        Set(subscriptions.compactMap { Subscription.server(for: $0.url).map(identity) })
    }

    /// `subscriptions` with `urls` added, tagged `tags`; one already there is said to `warn`.
    public static func adding(_ urls: [String], tags: [String], to subscriptions: [Subscription],
                              warn: (String) -> Void) throws(ToolError) -> (subscriptions: [Subscription], added: Int) {
        var subscriptions = subscriptions
        var known = identities(subscriptions)
        var added = 0
        for url in urls {
            let server = try ServerURL(url, allowingQuery: true)
            guard known.insert(identity(server)).inserted else {
                warn("already subscribed: \(Terminal.quote(ServerURL.redacted(url.trimmingSpaces())))")
                continue
            }
            subscriptions.append(Subscription(url: url.trimmingSpaces(), title: "", tags: tags))
            added += 1
        }
        return (subscriptions, added)
    }

    /// `subscriptions` without `feeds` (each a URL or a name); one that is not there is an error.
    public static func removing(_ feeds: [String], from subscriptions: [Subscription]) throws(ToolError) -> [Subscription] {
        var subscriptions = subscriptions
        for feed in feeds {
            let server = try? ServerURL(feed, allowingQuery: true)
            let before = subscriptions.count
            subscriptions.removeAll { subscription in
                subscription.title == feed || subscription.url == feed || server.map { same(subscription, $0) } == true
            }
            if subscriptions.count == before {
                throw .notFound(what: "subscription \(Terminal.quote(ServerURL.redactedIfCredentials(feed)))")
            }
        }
        return subscriptions
    }

    /// What `feeds remove <Tab>` offers, of what starts with `prefix` (by its bytes): every
    /// subscription's URL but one holding a password (a completion is written on the command
    /// line, where `feeds` never shows one), and every name that is one shell word.
    public static func completions(_ subscriptions: [Subscription], prefix: String) -> [String] {
        let words = subscriptions.flatMap { subscription -> [String] in
            let url = OPML.hasCredentials(subscription.url) ? [] : [subscription.url]
            let blank = subscription.title.unicodeScalars.contains { $0.properties.isWhitespace } || subscription.title.isEmpty
            return url + (blank ? [] : [subscription.title])
        }
        return words.filter { $0.utf8.starts(with: prefix.utf8) }
    }

    /// `subscriptions` with those of an OPML list not already there.
    /// `refused`: URLs that cannot be subscribed (not http or https, or holding a `"` or a
    /// blank, which the urls file would read back as another URL), told apart from those
    /// already subscribed.
    public static func importing(_ list: OPML.List, into subscriptions: [Subscription])
        -> (subscriptions: [Subscription], added: Int, refused: Int) {
        var subscriptions = subscriptions
        var known = identities(subscriptions)
        var added = 0
        var refused = 0
        for subscription in list.subscriptions {
            guard !subscription.url.utf8.contains(where: { $0 == UInt8(ascii: "\"") || $0 <= 0x20 }),
                  let server = Subscription.server(for: subscription.url) else {
                refused += 1
                continue
            }
            guard known.insert(identity(server)).inserted else { continue }
            subscriptions.append(subscription)
            added += 1
        }
        return (subscriptions, added, refused)
    }
}
