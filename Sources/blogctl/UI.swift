import ArgumentParser
import BlogctlKit
import ToolboxKit

extension Blogctl {
    struct UI: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "ui",
            abstract: "Read the blog on a full screen: the list, arranged, and each post.",
            discussion: """
                The list shows every post in two rows: • when unread, the title, the author and \
                the date; the summary. It opens at once with the list saved by the last \
                blogctl list or ui, then takes the server's; with the server out of reach it \
                stays on the saved one (the status line says offline; r tries again). o arranges \
                it (group by author or month, sort by date, title or author, reverse; \
                remembered in $XDG_STATE_HOME/blogctl/ui.json). / searches the index of blogctl \
                search (Esc returns to the list), U shows only unread posts, u marks a post read \
                or unread, P prefetches every body in the background.

                Enter reads a post, rendered as blogctl read renders it and marked read; a body \
                not cached shows its download (Esc stops it: nothing half-written is kept). \
                Space, b, PgUp, PgDn, g and G scroll; / finds, n and N move between matches; ] and [ \
                open the next and previous post; l lists the links and Enter opens one in \
                $BROWSER (http and https only). ? shows every key; q quits. Needs a terminal \
                (exit 64 otherwise); Ctrl-C exits 130.

                With subscriptions (blogctl feeds) and no server named, it opens on the feed \
                list: each feed's unread and total entries and its last error, refreshed at once \
                (r again); Enter shows a feed's posts as above, q comes back to the feeds.

                Examples:
                  blogctl ui
                  blogctl list > /dev/null && blogctl ui   # later, offline too
                """)

        @OptionGroup var common: CommonOptions

        func run() async throws {
            // Opened before the screen takes the terminal: what it has to say (a library made
            // anew beside an old layout, a damaged file) is a line on stderr, not under curses.
            _ = try Library.standard()
            if try SubscriptionListing.inUse(common) != nil {
                let status = try await FeedListWork.run(FeedListWork.Context(common: common, arrangementPath: Arrangement.path()))
                if status != 0 { throw ExitCode(status) }
                return
            }
            let cache = try PostCache.standard(server: try common.serverURL(tool: .blogctl))
            let status = try await common.withClient(tool: .blogctl, waitSpinner: false) { api in
                try await PostBrowserWork(client: BlogClient(api: api), cache: cache, marks: ReadMarks.standard(server: try common.serverURL(tool: .blogctl)),
                                          arrangementPath: Arrangement.path(), common: common).run()
            }
            if status != 0 { throw ExitCode(status) }
        }
    }
}
