import ArgumentParser
import BlogctlKit
import ToolboxKit

extension Blogctl.Cache {
    struct CacheList: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List cached posts, most recently read first.",
            discussion: "Piped: ID<TAB>BYTES<TAB>STORED_BYTES<TAB>LAST_USED<TAB>TITLE lines.")

        @Flag(help: "Print JSON.")
        var json = false

        @OptionGroup var pager: PagerOption

        @OptionGroup var server: ServerOption

        func run() throws {
            let entries = try PostCache.standard(server: try server.serverURL(tool: .blogctl)).entries()
            let mode = OutputMode(json: json)
            if mode == .json {
                StandardOutput.printJSON(entries.map(CacheListing.init))
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
            pager.print(table.render(mode))
        }
    }
}
