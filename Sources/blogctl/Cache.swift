import ArgumentParser
import BlogctlKit
import ToolboxKit

extension Blogctl {
    struct Cache: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "cache",
            abstract: "Look at or empty the post cache.",
            discussion: """
                Bodies live gzip-compressed in $XDG_CACHE_HOME/blogctl/posts/ID.html.gz (zcat reads \
                them) with their metadata and ETag in ID.json. The cache keeps under \
                $BLOGCTL_CACHE_MAX bytes (default 200M) by evicting the least recently read posts.
                """,
            subcommands: [ListEntries.self, Stats.self, Clear.self, Path.self])

        struct ListEntries: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "list",
                abstract: "List cached posts, most recently read first.",
                discussion: "Piped: ID<TAB>BYTES<TAB>STORED_BYTES<TAB>LAST_USED<TAB>TITLE lines.")

            @Flag(help: "Print JSON.")
            var json = false

            func run() throws {
                let entries = try PostCache.standard().entries()
                let mode = OutputMode(json: json)
                if mode == .json {
                    StandardOutput.print(String(decoding: JSONCoding.encode(entries.map(CacheListing.init), pretty: true), as: UTF8.self) + "\n")
                    return
                }
                var table = Table(columns: ["ID", "SIZE", "STORED", "LAST USED", "TITLE"])
                for entry in entries {
                    let used = entry.lastUsed ?? entry.stored
                    table.append(mode == .table
                        ? [entry.metadata.id, ProgressDisplay.bytes(Int64(entry.size)), ProgressDisplay.bytes(Int64(entry.storedSize)),
                           DateDisplay.human(used), entry.metadata.title]
                        : [entry.metadata.id, String(entry.size), String(entry.storedSize), ISO8601.format(used), entry.metadata.title])
                }
                StandardOutput.print(table.render(mode))
            }
        }

        struct Stats: ParsableCommand {
            static let configuration = CommandConfiguration(
            commandName: "stats",
                abstract: "Show the number of cached posts, their size on disk and compressed, and the cap.")

            @Flag(help: "Print JSON.")
            var json = false

            func run() throws {
                let cache = try PostCache.standard()
                let entries = cache.entries()
                let stats = CacheStats(
                    directory: cache.directory, posts: entries.count,
                    bodyBytes: entries.reduce(0) { $0 + $1.size },
                    storedBytes: entries.reduce(0) { $0 + $1.storedSize },
                    diskBytes: cache.totalSize(), capacity: cache.capacity)
                if json {
                    StandardOutput.print(String(decoding: JSONCoding.encode(stats, pretty: true), as: UTF8.self) + "\n")
                    return
                }
                let ratio = stats.storedBytes > 0 ? Double(stats.bodyBytes) / Double(stats.storedBytes) : 0
                let mode = OutputMode(json: false)
                func size(_ value: Int) -> String { mode == .table ? ProgressDisplay.bytes(Int64(value)) : String(value) }
                StandardOutput.print(FieldList.render([
                    ("directory", stats.directory),
                    ("posts", String(stats.posts)),
                    ("body bytes", size(stats.bodyBytes)),
                    ("compressed", size(stats.storedBytes)),
                    ("ratio", String((ratio * 100).rounded() / 100)),
                    ("on disk", size(stats.diskBytes)),
                    ("cap", size(stats.capacity)),
                ], mode))
            }
        }

        struct Clear: ParsableCommand {
            static let configuration = CommandConfiguration(
            commandName: "clear", abstract: "Remove every cached post.")

            @Flag(name: [.short, .long], help: "Print nothing.")
            var quiet = false

            func run() throws {
                let removed = try PostCache.standard().clear()
                if !quiet { StandardError.write("blogctl: removed \(removed) cached post\(removed == 1 ? "" : "s")") }
            }
        }

        struct Path: ParsableCommand {
            static let configuration = CommandConfiguration(
            commandName: "path", abstract: "Print the cache folder.")

            func run() throws {
                StandardOutput.print(try PostCache.standard().directory + "\n")
            }
        }
    }
}

/// A cache entry in `cache list --json`.
struct CacheListing: Encodable {
    let id: String
    let postId: String
    let title: String
    let etag: String?
    let size: Int
    let storedSize: Int
    let lastUsed: String

    init(_ entry: CacheEntry) {
        id = entry.metadata.id
        postId = entry.metadata.postId
        title = entry.metadata.title
        etag = entry.etag
        size = entry.size
        storedSize = entry.storedSize
        lastUsed = ISO8601.format(entry.lastUsed ?? entry.stored)
    }
}

struct CacheStats: Encodable {
    let directory: String
    let posts: Int
    let bodyBytes: Int
    let storedBytes: Int
    let diskBytes: Int
    let capacity: Int
}
