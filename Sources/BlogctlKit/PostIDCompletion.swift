import ToolboxKit
import BlogctlEngines

/// Post ids for the shell's Tab (`blogctl read <Tab>`): from what the library keeps (the last
/// `list` or `ui`), else the cached posts; offline, never the network. With subscriptions and no server named, every subscribed feed's, as `read` then finds them.
public enum PostIDCompletion {
    /// `before`: the words before the one completed, whose `--server` names the server.
    public static func candidates(before: [String] = [], prefix: String, environment: [String: String] = Environment.current) -> [String] {
        let flag = ShellCompletion.flagValue("--server", in: before)
        var servers: [ServerURL] = []
        if let subscriptions = (try? SubscriptionListing.inUse(server: flag, environment: environment, warn: nil)) ?? nil {
            servers = subscriptions.compactMap { Subscription.server(for: $0.url) }
        } else if let server = try? ServerURL.resolve(flag: flag, toolVariable: Tool.blogctl.serverVariable, environment: environment,
                                                       configured: Settings.current.text(.server), allowingQuery: true) {
            servers = [server]
        }
        // Offered once each, sorted (`offer`), whichever feeds share an id.
        return ShellCompletion.offer(servers.flatMap { ids(of: $0, environment: environment) }, typed: prefix, before: before)
    }

    /// One server's ids: what the library keeps of it, else its cached posts. A library not
    /// made yet is not made by a Tab.
    static func ids(of server: ServerURL, environment: [String: String]) -> [String] {
        guard let cache = try? PostCache.standard(server: server, environment: environment) else { return [] }
        if FileTrust.exists(Paths(environment: environment).data(.blogctl) + "/library.db"),
           let saved = (try? Library.standard(environment: environment).ids(of: server)) ?? nil {
            // A word of the shell's is one line.
            return saved.filter { id in !id.utf8.contains { $0 == 0x0A || $0 == 0x0D } }
        }
        return cache.entries().map(\.metadata.id)
    }
}
