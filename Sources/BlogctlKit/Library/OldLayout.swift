#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import SQLiteKit
import ToolboxKit

/// What blogctl kept before the library, a folder per server: `listing.tsv`, `feed.json`,
/// `last-error` and `gone` under `$XDG_CACHE_HOME/blogctl/servers/SERVER`, and `read.json` under
/// `$XDG_DATA_HOME/blogctl/servers/SERVER` (or the one `$XDG_DATA_HOME/blogctl/read.json` of
/// every server before that). Each source takes its files in when the library first meets it,
/// once; the files are left as they were.
struct OldLayout: Sendable {
    let cacheServers: String
    let dataRoot: String

    init(environment: [String: String]) {
        let paths = Paths(environment: environment)
        cacheServers = paths.cache(.blogctl) + "/servers"
        dataRoot = paths.data(.blogctl)
    }

    var isPresent: Bool {
        FileTrust.exists(cacheServers) || FileTrust.exists(dataRoot + "/servers") || LocalFile.isRegularFile(dataRoot + "/read.json")
    }

    /// Whether the old layout kept anything of `server`.
    func has(_ server: ServerURL) -> Bool {
        let cache = cacheServers + "/" + server.folderName
        return ["/listing.tsv", "/feed.json", "/last-error", "/gone"].contains { LocalFile.isRegularFile(cache + $0) }
            || LocalFile.isRegularFile(dataRoot + "/servers/" + server.folderName + "/read.json")
            || LocalFile.isRegularFile(dataRoot + "/read.json")
    }

    /// Said once, when a new library is made beside an old layout.
    func announce(library: String) {
        guard isPresent else { return }
        Tool.blogctl.warn("keeping lists, read marks and feed state in \(library) from now on; each server's and feed's old files "
            + "are taken in when it is first used, and left as they were")
    }

    /// Takes in what the old layout kept of `server` as the library's row `source`, unless it
    /// was taken in before.
    func takeIn(_ server: ServerURL, source: Int, _ db: SQLiteStatements) throws {
        guard try db.value("SELECT 1 FROM old_layout_taken WHERE key = ?", [.text(server.folderName)]) == nil else { return }
        try db.execute("INSERT INTO old_layout_taken (key) VALUES (?)", [.text(server.folderName)])
        let folder = cacheServers + "/" + server.folderName
        var state = SourceRecord()
        if let bytes = try? LocalFile.read(folder + "/listing.tsv", limit: 256 << 20, regularOnly: true),
           case .success(let posts) = ListingFile.decode(bytes) {
            let insert = "INSERT OR IGNORE INTO entries (\(EntryRow.inserted)) VALUES (\(EntryRow.placeholders))"
            let now = Date()
            for (position, post) in posts.enumerated() {
                try db.execute(insert, EntryRow.values(source: source, post, position: position, now: now))
            }
            state.listedAt = Self.modified(folder + "/listing.tsv") ?? Date()
            state.generation = 1
        }
        if let bytes = try? LocalFile.read(folder + "/feed.json", limit: 64 << 10, regularOnly: true),
           let feed = try? JSONCoding.decode(FeedServer.State.self, from: Data(bytes)) {
            state.kind = .feed
            state.feedURL = feed.feed
            state.etag = feed.etag
            state.lastModified = feed.lastModified
            state.title = feed.title
        }
        if let bytes = try? LocalFile.read(folder + "/last-error", limit: 4096, regularOnly: true) {
            state.lastError = String(decoding: bytes, as: UTF8.self)
        }
        state.gone = LocalFile.isRegularFile(folder + "/gone")
        try state.store(id: source, db)
        let own = dataRoot + "/servers/" + server.folderName + "/read.json"
        let marks = LocalFile.isRegularFile(own) ? own : dataRoot + "/read.json"
        if let bytes = try? LocalFile.read(marks, limit: 64 << 20, regularOnly: true), !bytes.isEmpty,
           let ids = try? JSONCoding.decode([String].self, from: Data(bytes)) {
            for id in ids { try db.execute("INSERT OR IGNORE INTO marks (source, id) VALUES (?, ?)", [.integer(source), .text(id)]) }
        }
    }

    static func modified(_ path: String) -> Date? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return Date(timeIntervalSince1970: Double(info.st_mtim.tv_sec))
    }
}
