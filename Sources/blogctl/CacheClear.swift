import ArgumentParser
import BlogctlKit
import ToolboxKit

extension Blogctl.Cache {
    struct CacheClear: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "clear", abstract: "Remove every cached post body; the library (lists, read marks) stays.")

        @Flag(name: [.short, .long], help: "Print nothing.")
        var quiet = false

        @OptionGroup var server: ServerOption

        func run() throws {
            let removed = try PostCache.standard(server: try server.serverURL(tool: .blogctl)).clear()
            if !quiet { Tool.blogctl.say("removed \(removed) cached post\(removed == 1 ? "" : "s")") }
        }
    }
}
