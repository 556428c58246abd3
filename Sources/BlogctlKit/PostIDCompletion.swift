import ToolboxKit

/// Post ids for the shell's Tab (`blogctl read <Tab>`): from the list the last `list` or `ui`
/// saved, else the cached posts; offline, never the network.
public enum PostIDCompletion {
    public static func candidates(prefix: String, environment: [String: String] = Environment.current) -> [String] {
        guard let cache = try? PostCache.standard(environment: environment) else { return [] }
        let ids = ((try? cache.savedListing()) ?? nil)?.map(\.id) ?? cache.entries().map(\.metadata.id)
        return ids.filter { $0.hasPrefix(prefix) }.sorted()
    }
}
