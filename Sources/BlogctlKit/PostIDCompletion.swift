import ToolboxKit

/// Post ids for the shell's Tab (`blogctl read <Tab>`): from the ids the last `list` or `ui`
/// saved beside its list, else the cached posts; offline, never the network.
public enum PostIDCompletion {
    /// `before`: the words before the one completed, whose `--server` names the server.
    public static func candidates(before: [String] = [], prefix: String, environment: [String: String] = Environment.current) -> [String] {
        guard let server = try? ServerURL.resolve(flag: ShellCompletion.flagValue("--server", in: before), toolVariable: Tool.blogctl.serverVariable, environment: environment,
                                                  configured: Settings.current.text(.server), allowingQuery: true),
              let cache = try? PostCache.standard(server: server, environment: environment)
        else { return [] }
        let saved = (try? LocalFile.read(cache.idsPath, limit: 16 << 20, regularOnly: true))
            .map { String(decoding: $0, as: UTF8.self).split(separator: "\n").map(String.init) }
        let ids = saved ?? cache.entries().map(\.metadata.id)
        return ShellCompletion.offer(ids, typed: prefix, before: before)
    }
}
