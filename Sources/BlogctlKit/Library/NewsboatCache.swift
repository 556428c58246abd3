import FoundationEssentials
import SQLiteKit
import ToolboxKit
import BlogctlEngines

/// newsboat's `cache.db`, read so that a newsboat user keeps their reading: its feeds (title,
/// validators) become sources, its items entries keyed by guid, read where newsboat had them
/// read, with newsboat's flags. Opened read-only; the file is never changed.
public enum NewsboatCache {
    /// The first bytes of every SQLite file.
    public static func isSQLite(_ bytes: some Collection<UInt8>) -> Bool {
        bytes.starts(with: Array("SQLite format 3\u{0}".utf8))
    }

    public struct Imported: Sendable, Equatable {
        /// The feeds, to subscribe to (those already subscribed are left as they are).
        public var feeds: [Subscription] = []
        public var entries = 0
        public var read = 0
        /// Items left out: a guid blogctl cannot use as an id, or a feed URL it cannot read.
        public var skipped = 0
    }

    /// Takes newsboat's cache at `path` into `library`, in one transaction: an entry the
    /// library already has keeps what it has (a mark newsboat has is added).
    public static func take(_ path: String, into library: Library, now: Date = Date()) throws(ToolError) -> Imported {
        if let problem = FileTrust.problem(path, limit: Int.max) { throw .io(path: path, reason: problem + "; refusing to read it") }
        let source: SQLiteFile
        do { source = try SQLiteFile(SQLiteFile.readOnlyURI(try FileTrust.trustedLocation(path))) } catch let error as ToolError {
            throw error
        } catch { throw Library.failure(error, path: path) }
        defer { source.close() }
        do {
            return try source.transaction(.read) { newsboat in
                guard try newsboat.value("SELECT count(*) FROM sqlite_master WHERE name IN ('rss_feed', 'rss_item')")?.integer == 2 else {
                    throw ToolError.badData("\(path): an SQLite file, but not newsboat's cache.db (no rss_feed and rss_item tables)")
                }
                return try library.write { db in try take(newsboat, into: library, db, now: now) }
            }
        } catch let error as ToolError { throw error } catch { throw Library.failure(error, path: path) }
    }

    static func take(_ newsboat: SQLiteStatements, into library: Library, _ db: SQLiteStatements, now: Date) throws -> Imported {
        var imported = Imported()
        // Feed URLs compared by their bytes, as newsboat wrote them.
        var sources: [[UInt8]: Int] = [:]
        try newsboat.each("SELECT rssurl, title, lastmodified, etag, url FROM rss_feed ORDER BY rowid") { row in
            let url = row.values[0].string ?? ""
            guard let server = try? ServerURL(url, allowingQuery: true) else { return }
            let id = try library.sourceID(server, db)
            var state = try db.rows("SELECT \(SourceRecord.columns) FROM sources s WHERE s.id = ?", [.integer(id)]).first
                .map { SourceRecord($0) } ?? SourceRecord()
            state.kind = .feed
            state.feedURL = state.feedURL ?? server.resource
            if state.title == nil, let title = row.values[1].string, !title.isEmpty { state.title = title }
            if state.etag == nil, let etag = row.values[3].string, !etag.isEmpty { state.etag = etag }
            // The feed's site, as newsboat kept it (its `url`, as the feed wrote it: relative
            // links read against the feed's own URL), when an http(s) URL.
            if state.siteURL == nil, let site = row.values[4].string, !site.isEmpty {
                state.siteURL = (URLReference(url)?.resolving(site) ?? URLReference(site))?.absolute
            }
            if state.lastModified == nil, let seconds = row.values[2].integer, seconds > 0 {
                state.lastModified = FeedDate.rfc822(Date(timeIntervalSince1970: Double(seconds)))
            }
            state.listedAt = state.listedAt ?? now
            state.generation += 1
            try state.store(id: id, db)
            sources[Array(url.utf8)] = id
            imported.feeds.append(Subscription(url: url, title: "", tags: []))
        }
        var positions: [Int: Int] = [:]
        let insert = """
            INSERT OR IGNORE INTO entries (source, id, post_id, title, published, summary, author, author_image, author_title,
                link, base, position, present, first_seen, flags) VALUES (?, ?, ?, ?, ?, '', ?, '', '', ?, ?, ?, 0, ?, ?)
            """
        try newsboat.each("""
            SELECT guid, title, author, url, feedurl, pubDate, unread, coalesce(flags, ''), base FROM rss_item
            WHERE deleted = 0 ORDER BY feedurl, pubDate DESC, id DESC
            """) { row in
            let values = row.values
            guard let source = values[4].string.flatMap({ sources[Array($0.utf8)] }), let guid = values[0].string,
                  ResourceID.problem(guid) == nil else {
                imported.skipped += 1
                return
            }
            let position = positions[source, default: 0]
            positions[source] = position + 1
            let link = values[3].string.flatMap { $0.isEmpty ? nil : $0 }
            let base = values[8].string.flatMap { $0.isEmpty ? nil : $0 }
            try db.execute(insert, [.integer(source), .text(guid), .text(guid), .text(values[1].string ?? ""),
                                    values[5].integer.map { $0 > 0 ? .real(Double($0)) : .null } ?? .null,
                                    .text(values[2].string ?? ""), .optional(link), .optional(base), .integer(position),
                                    .real(now.timeIntervalSince1970), .text(values[7].string ?? "")])
            imported.entries += 1
            if values[6].integer == 0 {
                try db.execute("INSERT OR IGNORE INTO marks (source, id) VALUES (?, ?)", [.integer(source), .text(guid)])
                imported.read += 1
            }
        }
        return imported
    }
}
