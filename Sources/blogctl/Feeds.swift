import ArgumentParser
import BlogctlKit
import FoundationEssentials
import ToolboxKit
import BlogctlEngines

extension Blogctl {
    struct Feeds: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "feeds",
            abstract: "Subscribe to feeds, as newsboat's urls file: list, add, remove, import and export OPML.",
            discussion: """
                Subscriptions live in $XDG_CONFIG_HOME/blogctl/urls, written as newsboat writes its \
                urls file: a feed's URL a line, then its tags, "~Name" naming it; newsboat's \
                "query:NAME:EXPRESSION", "exec:COMMAND" and "filter:COMMAND:URL" lines are read as \
                newsboat reads them (blogctl(1), FILES). With subscriptions and no server named (no --server, $BLOGCTL_SERVER, $TOOLBOX_SERVER or \
                config.yml server), blogctl list refreshes and lists every feed, with a FEED column.

                Examples:
                  blogctl feeds add https://example.org/atom.xml https://example.com/blog/
                  blogctl feeds import subscriptions.opml
                  blogctl feeds export > subscriptions.opml
                  blogctl list --group-by feed
                """,
            subcommands: [FeedsList.self, FeedsAdd.self, FeedsRemove.self, FeedsImport.self, FeedsExport.self],
            defaultSubcommand: FeedsList.self)
    }
}

extension Blogctl.Feeds {
    struct FeedsList: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List the subscriptions: name, URL, entries, unread, last update, last error.",
            discussion: "Piped: NAME<TAB>URL<TAB>ENTRIES<TAB>UNREAD<TAB>UPDATED<TAB>ERROR lines. From the cache alone: no network.")

        @Flag(help: "Print JSON.")
        var json = false

        @OptionGroup var pager: PagerOption

        func run() throws {
            let file = Subscriptions.standard()
            let subscriptions = try file.load { Tool.blogctl.warn($0) }
            // The query feeds after the feeds, as newsboat lists them.
            let rows = try SubscriptionTable.rows(subscriptions)
                + SubscriptionTable.rows(try file.queries { Tool.blogctl.warn($0) }, of: subscriptions)
            let mode = OutputMode(json: json)
            if rows.isEmpty, mode == .table { return Tool.blogctl.say("no subscriptions: blogctl feeds add URL subscribes to a feed") }
            pager.print(SubscriptionTable.render(rows, mode: mode))
        }
    }
}
