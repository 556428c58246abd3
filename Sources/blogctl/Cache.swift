import ArgumentParser
import BlogctlKit
import ToolboxKit

extension Blogctl {
    struct Cache: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "cache",
            abstract: "Look at or empty the post cache.",
            discussion: """
                Bodies live gzip-compressed in $XDG_CACHE_HOME/blogctl/servers/SERVER/posts/ID.html.gz (zcat reads \
                them) with their metadata and ETag in ID.json. The cache keeps under \
                $BLOGCTL_CACHE_MAX bytes (default 200M) by evicting the least recently read posts.
                """,
            subcommands: [CacheList.self, CacheStatsCommand.self, CacheClear.self, CacheReindex.self, CachePath.self])
    }
}
