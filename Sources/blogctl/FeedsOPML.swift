import ArgumentParser
import BlogctlKit
import FoundationEssentials
import ToolboxKit
import BlogctlEngines

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
            discussion: """
                Each feed is named by its title in the urls file, else its own title as last fetched, else its URL; \
                its site (htmlUrl) is its own link as last fetched, else the one an import gave it. \
                A URL's user and password are left out (said on stderr), as are exec: and filter: feeds (commands of \
                this machine), and characters XML cannot hold (control characters) are dropped, so the document is \
                well-formed and prints safely.
                """)

        func run() throws {
            let all = try Subscriptions.standard().load { Tool.blogctl.warn($0) }
            // A command feed is this machine's program, not a feed another reader can fetch.
            let subscriptions = all.filter { FeedCommand($0.url) == nil }
            if subscriptions.count < all.count {
                let commands = all.count - subscriptions.count
                Tool.blogctl.warn("\(commands) exec: or filter: feed\(commands == 1 ? " is" : "s are") left out of the export (a command, not a URL)")
            }
            let withheld = subscriptions.count { OPML.hasCredentials($0.url) }
            if withheld > 0 {
                Tool.blogctl.warn("\(withheld) feed URL\(withheld == 1 ? " holds" : "s hold") a user or password, left out of the export "
                                  + "(the urls file keeps \(withheld == 1 ? "it" : "them"))")
            }
            StandardOutput.print(OPML.write(subscriptions, name: \.knownName, site: \.knownSite))
        }
    }
}
