import ArgumentParser
import BlogctlKit
import ToolboxKit

extension Blogctl {
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List every post's date, author, title and summary, grouped and sorted.",
            discussion: """
                Author groups run A to Z, month groups newest first. Inside a group: date newest \
                first, title or author A to Z; --reverse flips that order. On a terminal, a table \
                under group headers; piped, ID<TAB>DATE<TAB>AUTHOR<TAB>TITLE<TAB>SUMMARY lines with \
                a GROUP column first when grouped; with --json, the metadata objects with "group" \
                and "read". Unread posts are marked • on a terminal (blogctl read marks a post read; \
                blogctl mark changes it); the piped columns stay as they are. Uses /post-metadata only.

                Filters combine with grouping and sorting: --author matches part of the name, any \
                case; --since and --until take a date, \(DateInput.forms), a day counting whole \
                (both ends included); --limit keeps the first N in display order.

                Examples:
                  blogctl list --group-by author --sort-by title
                  blogctl list --unread --since 2018-08-01 --limit 5
                  blogctl list --author ada --json | jq -r '.[].title'
                """)

        @Option(name: .customLong("group-by"), help: "Group by none, author, month, feed or tag (a feed's first tag).")
        var groupBy: PostGrouping = .none

        @Option(name: .customLong("sort-by"), help: "Sort by date, title or author inside each group.")
        var sortBy: PostSorting = .date

        @Flag(help: "Reverse the order inside each group.")
        var reverse = false

        @Option(help: ArgumentHelp("Only posts whose author's name contains this, any case.", valueName: "name"))
        var author: String?

        @Option(help: ArgumentHelp("Only posts published at or after this time; a day from its start (see DATES in the man page).",
                                   valueName: "date"))
        var since: String?

        @Option(help: ArgumentHelp("Only posts published at or before this time; a day to its end.", valueName: "date"))
        var until: String?

        @Option(help: ArgumentHelp("Show at most this many posts.", valueName: "n"))
        var limit: Int?

        @Flag(help: "Only posts not yet read.")
        var unread = false

        @OptionGroup var selection: ListSelection

        @Flag(help: "The list the last blogctl list or ui saved: no network.")
        var offline = false

        @Option(help: ArgumentHelp("With subscriptions: feeds refreshed at once, at most 6 of one host (1-64).", valueName: "n"))
        var jobs = 8

        @OptionGroup var common: CommonOptions

        @OptionGroup var pager: PagerOption

        func validate() throws {
            if let limit, limit < 1 { throw ValidationError("--limit must be at least 1") }
            guard (1...64).contains(jobs) else { throw ValidationError("--jobs must be between 1 and 64") }
            for (name, value) in [("--since", since), ("--until", until)] {
                if let value, DateInput().value(value) == nil {
                    throw ValidationError("\(name): invalid date \(Terminal.quote(value)): use \(DateInput.forms)")
                }
            }
        }

        func run() async throws {
            let dates = DateInput()
            let feeds = try ListedFeeds(try SubscriptionListing.inUse(common), tag: selection.tag, query: selection.query, filter: selection.filter)
            let kept = PostFilter(author: author, since: try since.map { try dates.value(of: $0).start },
                                  until: try until.map { try dates.value(of: $0).end },
                                  unreadOnly: unread, limit: limit, expression: feeds.expression)
            let run = ListRun(filter: kept, ordering: PostOrdering(grouping: groupBy, sorting: sortBy, reversed: reverse),
                              mode: common.outputMode, tags: feeds.tags)
            if let subscriptions = feeds.subscriptions {
                // Every subscription, refreshed (or from the cache, offline), with a FEED column; a
                // feed that fails is named, the others listed, and the run ends with exit 75.
                var (failed, total) = (0, 0)
                try await pager.print(pieces: { write in
                    (failed, total) = try await SubscriptionListing.list(subscriptions, run: run, jobs: jobs, offline: offline, common: common, write: write)
                })
                if failed > 0 { throw ToolError.tryLater("\(failed) of \(total) feeds could not be refreshed; the others are listed") }
                return
            }
            try await pager.print(pieces: { write in
                if offline { return try await run.run(nil, server: try common.serverURL(tool: .blogctl), write: write) }
                try await common.withClient(tool: .blogctl) { api in try await run.run(BlogClient(api: api), server: api.server, write: write) }
            })
        }
    }
}
