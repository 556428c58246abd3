import ArgumentParser
import BlogctlKit
import ToolboxKit

extension Blogctl.Cache {
    struct CacheReindex: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "reindex",
            abstract: "Rebuild the search index's bodies from the cache.",
            discussion: """
                The index (search.sqlite beside the cache folder, one per server) follows the cache by itself and \
                is rebuilt whenever it is missing or damaged; this makes it anew on demand. Titles \
                and summaries of posts not cached come back with the next blogctl list.
                """)

        @OptionGroup var server: ServerOption

        func run() throws {
            let cache = try PostCache.standard(server: try server.serverURL(tool: .blogctl))
            let count = try cache.reindex(try cache.searchIndex(fresh: true))
            Tool.blogctl.say("indexed \(count) cached post\(count == 1 ? "" : "s")")
        }
    }
}
