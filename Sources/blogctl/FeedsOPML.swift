import ArgumentParser
import BlogctlKit
import FoundationEssentials
import ToolboxKit

extension Blogctl.Feeds {
    struct FeedsImport: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract: "Subscribe to every feed of an OPML file (1.0 or 2.0); its folders become tags.",
            discussion: "Feeds already subscribed to are left as they are. - reads standard input.")

        @Argument(help: ArgumentHelp("The OPML file.", valueName: "file"))
        var file: String

        func run() throws {
            let bytes = file == "-" ? try LocalFile.read(descriptor: 0, path: "standard input", limit: 64 << 20)
                : try LocalFile.read(file, limit: 64 << 20)
            let list = try OPML.read(Data(bytes))
            let urls = Subscriptions.standard()
            let (subscriptions, added) = Subscriptions.importing(list, into: try urls.load { Tool.blogctl.warn($0) })
            try urls.save(subscriptions)
            var line = "imported \(added) feed\(added == 1 ? "" : "s")"
            if list.subscriptions.count > added { line += ", \(list.subscriptions.count - added) already subscribed" }
            if list.skipped > 0 { line += ", \(list.skipped) outline\(list.skipped == 1 ? "" : "s") without an http(s) feed left out" }
            Tool.blogctl.say(line)
        }
    }

    struct FeedsExport: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "export",
            abstract: "Print the subscriptions as OPML 2.0, tags as folders: what other readers import.",
            discussion: "Each feed is named by its title in the urls file, else its own title as last fetched, else its URL.")

        func run() throws {
            StandardOutput.print(OPML.write(try Subscriptions.standard().load { Tool.blogctl.warn($0) }, name: \.knownName))
        }
    }
}
