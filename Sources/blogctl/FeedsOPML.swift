import ArgumentParser
import BlogctlKit
import FoundationEssentials
import ToolboxKit

extension Blogctl.Feeds {
    struct FeedsImport: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract: "Subscribe to the feeds of an OPML file, a newsboat urls file, or newsboat's cache.db.",
            discussion: """
                An OPML file's folders become tags. newsboat's cache.db (told by its first bytes) \
                brings each feed's entries, read marks, flags and validators into the library, \
                read-only. Feeds already subscribed to are left as they are. - reads standard \
                input (OPML or a urls file).

                Examples:
                  blogctl feeds import ~/subscriptions.opml
                  blogctl feeds import ~/.newsboat/urls
                  blogctl feeds import ~/.local/share/newsboat/cache.db
                """)

        @Argument(help: ArgumentHelp("The OPML file, urls file or cache.db.", valueName: "file"), completion: .file())
        var file: String

        func run() throws {
            Tool.blogctl.say(try SubscriptionImport.run(file))
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
