import FoundationEssentials
import ToolboxKit
import BlogctlEngines

/// How each subscribed feed fared at its last refresh, for `blogctl feeds`: kept in its row of
/// the library (`SourceRecord`): the time of the last list it gave, and the error of the last
/// refresh that failed, until one succeeds. A feed that answered `410 Gone` is dead (`gone`):
/// it is no longer asked, and what the library has of it is still shown.
public enum FeedHealth {
    /// Keeps `message` as the feed's last error, or clears it (nil: a refresh that worked, a
    /// 304 too, which makes now its last update); `gone` marks the feed dead. Failing to write
    /// it is no error.
    public static func record(_ message: String?, gone: Bool = false, server: ServerURL,
                              environment: [String: String] = Environment.current) {
        record([Outcome(server: server, message: message, gone: gone)], environment: environment)
    }

    /// How one feed's refresh went: its error (nil: it answered), and whether it is gone.
    public struct Outcome: Sendable {
        let server: ServerURL
        let message: String?
        var gone = false
    }

    /// Every feed's outcome of a refresh, in one transaction.
    static func record(_ outcomes: [Outcome], environment: [String: String] = Environment.current) {
        guard !outcomes.isEmpty else { return }
        let now = Date()
        try? Library.standard(environment: environment).update(outcomes.map(\.server)) { place, source in
            let outcome = outcomes[place]
            source.lastError = outcome.message
            source.gone = outcome.message == nil ? false : outcome.gone || source.gone
            if outcome.message == nil, source.listedAt != nil { source.listedAt = now }
        }
    }

    /// Whether the feed answered 410 Gone: no longer asked.
    public static func isGone(server: ServerURL) -> Bool {
        ((try? Library.standard().source(server)) ?? nil)?.gone ?? false
    }

    /// The feed's own title, as last fetched.
    public static func title(server: ServerURL) -> String? { FeedServer.remembered(server: server)?.title }

    /// The feed's site: its own link as last fetched, else the one an import gave it.
    public static func site(server: ServerURL, environment: [String: String] = Environment.current) -> String? {
        ((try? Library.standard(environment: environment).source(server)) ?? nil)?.siteURL
    }
}

extension Subscription {
    /// The name the urls file gives it, else the feed's own title as last fetched; "" when
    /// neither is known (an export then names it by its URL).
    public var knownName: String { knownName(server: try? ServerURL(url, allowingQuery: true)) }

    /// The feed's site as the library knows it (`FeedHealth.site`), for an export's `htmlUrl`.
    public var knownSite: String? { (try? ServerURL(url, allowingQuery: true)).flatMap { FeedHealth.site(server: $0) } }

    func knownName(server: ServerURL?) -> String {
        if !title.isEmpty { return title }
        return server.flatMap(FeedHealth.title(server:)) ?? ""
    }

    /// What a subscription is called: its known name, else its host (its URL when it is not one).
    func name(server: ServerURL?) -> String {
        name(server: server, feedTitle: server.flatMap(FeedHealth.title(server:)))
    }

    /// The one naming rule: the urls file's name, else `feedTitle` (the feed's own, as the
    /// library last had it), else the host (the URL when it is not one).
    func name(server: ServerURL?, feedTitle: String?) -> String {
        if !title.isEmpty { return title }
        if let feedTitle, !feedTitle.isEmpty { return feedTitle }
        // A command feed's server is a name no one reads: its line is.
        return FeedCommand(url) == nil ? server?.host ?? url : url
    }
}
