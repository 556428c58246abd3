#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import ToolboxKit

/// How each subscribed feed fared at its last refresh, for `blogctl feeds`: the time of the last
/// list it gave (its saved listing's), and the error of the last refresh that failed, kept in
/// `last-error` beside the listing until one succeeds. A feed that answered `410 Gone` is dead
/// (`gone`): it is no longer asked, and its last list is still shown.
public enum FeedHealth {
    static func errorPath(_ cache: PostCache) -> String {
        String(cache.listingPath.dropLast("listing.tsv".count)) + "last-error"
    }

    static func gonePath(_ cache: PostCache) -> String {
        String(cache.listingPath.dropLast("listing.tsv".count)) + "gone"
    }

    /// Keeps `message` as the feed's last error, or clears it (nil); `gone` marks the feed dead.
    /// A copy: failing to write it is no error.
    public static func record(_ message: String?, gone: Bool = false, server: ServerURL) {
        guard let cache = try? PostCache.standard(server: server) else { return }
        let path = errorPath(cache)
        guard let message else {
            for path in [path, gonePath(cache)] where LocalFile.isRegularFile(path) { unlink(path) }
            return
        }
        try? LocalFile.privateDirectory(String(path.dropLast("/last-error".count)))
        try? LocalFile.writeAtomically(path, Array(message.utf8.prefix(4096)), mode: 0o600)
        if gone { try? LocalFile.writeAtomically(gonePath(cache), [], mode: 0o600) }
    }

    /// Whether the feed answered 410 Gone: no longer asked.
    public static func isGone(server: ServerURL) -> Bool {
        guard let cache = try? PostCache.standard(server: server) else { return false }
        return LocalFile.isRegularFile(gonePath(cache))
    }

    public static func lastError(server: ServerURL) -> String? {
        guard let cache = try? PostCache.standard(server: server),
              let bytes = try? LocalFile.read(errorPath(cache), limit: 4096, regularOnly: true) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The feed's own title, as last fetched.
    public static func title(server: ServerURL) -> String? { FeedServer.remembered(server: server)?.title }

    /// When the feed last gave a list.
    public static func lastUpdate(server: ServerURL) -> Date? {
        guard let cache = try? PostCache.standard(server: server) else { return nil }
        var info = stat()
        guard lstat(cache.listingPath, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        return Date(timeIntervalSince1970: Double(info.st_mtim.tv_sec))
    }
}

extension FeedSubscription {
    /// The name the urls file gives it, else the feed's own title as last fetched; "" when
    /// neither is known (an export then names it by its URL).
    public var knownName: String { knownName(server: try? ServerURL(url, allowingQuery: true)) }

    func knownName(server: ServerURL?) -> String {
        if !title.isEmpty { return title }
        return server.flatMap(FeedHealth.title(server:)) ?? ""
    }

    /// What a subscription is called: its known name, else its host (its URL when it is not one).
    func name(server: ServerURL?) -> String {
        let known = knownName(server: server)
        return !known.isEmpty ? known : server?.host ?? url
    }
}
