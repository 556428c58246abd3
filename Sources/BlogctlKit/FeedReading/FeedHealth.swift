#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import ToolboxKit

/// How each subscribed feed fared at its last refresh, for `blogctl feeds`: the time of the last
/// list it gave (its saved listing's), and the error of the last refresh that failed, kept in
/// `last-error` beside the listing until one succeeds.
public enum FeedHealth {
    static func errorPath(_ cache: PostCache) -> String {
        String(cache.listingPath.dropLast("listing.tsv".count)) + "last-error"
    }

    /// Keeps `message` as the feed's last error, or clears it (nil). A copy: failing is no error.
    public static func record(_ message: String?, server: ServerURL) {
        guard let cache = try? PostCache.standard(server: server) else { return }
        let path = errorPath(cache)
        guard let message else {
            if LocalFile.isRegularFile(path) { unlink(path) }
            return
        }
        try? LocalFile.privateDirectory(String(path.dropLast("/last-error".count)))
        try? LocalFile.writeAtomically(path, Array(message.utf8.prefix(4096)), mode: 0o600)
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
