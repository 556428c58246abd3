import ArgumentParser
import BlogctlKit
import ToolboxKit

extension Blogctl.Cache {
    struct CacheStatsCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "stats",
            abstract: "Show the number of cached posts, their size on disk and compressed, and the cap.")

        @Flag(help: "Print JSON.")
        var json = false

        @OptionGroup var server: ServerOption

        func run() throws {
            let stats = CacheStats(of: try PostCache.standard(server: try server.serverURL(tool: .blogctl)))
            if json {
                StandardOutput.printJSON(stats)
                return
            }
            let mode = OutputMode(json: false)
            func size(_ value: Int) -> String { mode == .table ? ProgressDisplay.bytes(Int64(value)) : String(value) }
            StandardOutput.print(FieldList.render([
                ("directory", stats.directory),
                ("posts", String(stats.posts)),
                ("body bytes", size(stats.bodyBytes)),
                ("compressed", size(stats.storedBytes)),
                ("ratio", String(stats.compressionRatio)),
                ("on disk", size(stats.diskBytes)),
                ("cap", size(stats.capacity)),
            ], mode))
        }
    }
}
