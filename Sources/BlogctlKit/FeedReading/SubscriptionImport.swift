#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import ToolboxKit
import BlogctlEngines

/// `blogctl feeds import FILE`: what another reader kept, told apart by its first bytes:
/// newsboat's `cache.db` (an SQLite file: feeds, entries, read marks and flags), an OPML file
/// (XML: folders become tags), or a newsboat urls file (anything else). Feeds already
/// subscribed to are left as they are.
public enum SubscriptionImport {
    /// Imports `file` (`-`: standard input, not for an SQLite file) and says what was done.
    public static func run(_ file: String, environment: [String: String] = Environment.current) throws(ToolError) -> String {
        let urls = Subscriptions.standard(environment: environment)
        let existing = try urls.load { Tool.blogctl.warn($0) }
        if file != "-", try isSQLite(file) {
            let taken = try NewsboatCache.take(file, into: try Library.standard(environment: environment))
            let (subscriptions, added, refused) = Subscriptions.importing(OPML.List(subscriptions: taken.feeds, skipped: 0), into: existing)
            try urls.save(subscriptions)
            var line = "imported newsboat's cache: \(added) feed\(added == 1 ? "" : "s") subscribed"
            if taken.feeds.count - refused > added { line += " (\(taken.feeds.count - refused - added) already)" }
            if refused > 0 { line += ", \(refused) URL\(refused == 1 ? "" : "s") that cannot be subscribed left out" }
            line += ", \(taken.entries) entr\(taken.entries == 1 ? "y" : "ies"), \(taken.read) read"
            if taken.skipped > 0 { line += ", \(taken.skipped) item\(taken.skipped == 1 ? "" : "s") left out (no usable guid or feed)" }
            return line
        }
        let bytes = file == "-" ? try LocalFile.read(descriptor: 0, path: "standard input", limit: 64 << 20)
            : try LocalFile.read(file, limit: 64 << 20)
        if NewsboatCache.isSQLite(bytes) {
            throw .usage("an SQLite file on standard input: name newsboat's cache.db as a file")
        }
        let list = isXML(bytes) ? try OPML.read(Data(bytes))
            : OPML.List(subscriptions: Subscriptions.parse(String(decoding: bytes, as: UTF8.self)) { Tool.blogctl.warn("\(file): \($0)") },
                        skipped: 0)
        let (subscriptions, added, refused) = Subscriptions.importing(list, into: existing)
        try urls.save(subscriptions)
        rememberSites(of: list.subscriptions, environment: environment)
        var line = "imported \(added) feed\(added == 1 ? "" : "s")"
        if list.subscriptions.count - refused > added { line += ", \(list.subscriptions.count - refused - added) already subscribed" }
        if refused > 0 { line += ", \(refused) URL\(refused == 1 ? "" : "s") that cannot be subscribed left out" }
        if list.skipped > 0 { line += ", \(list.skipped) outline\(list.skipped == 1 ? "" : "s") without an http(s) feed left out" }
        return line
    }

    /// Keeps each imported feed's site (OPML's `htmlUrl`) in the library, where the feed has
    /// none yet (its own link, once fetched, takes its place), so that `feeds export` writes
    /// it back: import then export is a round trip. Failing to write it is no error.
    static func rememberSites(of subscriptions: [Subscription], environment: [String: String]) {
        let sited = subscriptions.compactMap { subscription in
            subscription.site.flatMap { site in Subscription.server(for: subscription.url).map { ($0, site) } }
        }
        guard !sited.isEmpty else { return }
        try? Library.standard(environment: environment).update(sited.map(\.0)) { place, source in
            if source.siteURL == nil { source.siteURL = sited[place].1 }
        }
    }

    /// Whether the file at `path` starts as an SQLite file does (its first 16 bytes alone read).
    static func isSQLite(_ path: String) throws(ToolError) -> Bool {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw .io(path: path, reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        var head = [UInt8](repeating: 0, count: 16)
        return read(fd, &head, 16) == 16 && NewsboatCache.isSQLite(head)
    }

    /// Whether the document is XML: its first byte that is not white space (after a byte
    /// order mark) is `<`.
    static func isXML(_ bytes: [UInt8]) -> Bool {
        var rest = bytes[...]
        if rest.starts(with: [0xEF, 0xBB, 0xBF]) { rest = rest.dropFirst(3) }
        return rest.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) } == UInt8(ascii: "<")
    }
}
