import ArgumentParser
import BlogctlKit
import ToolboxKit

extension Blogctl.Cache {
    struct CachePath: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "path", abstract: "Print the cache folder.")

        @OptionGroup var server: ServerOption

        func run() throws {
            StandardOutput.print(try PostCache.standard(server: try server.serverURL(tool: .blogctl)).directory + "\n")
        }
    }
}
