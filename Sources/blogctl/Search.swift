import ArgumentParser
import BlogctlKit
import ToolboxKit

extension Blogctl {
    struct Search: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "search",
            abstract: "Find posts by words in their title, author, summary or cached body.",
            discussion: """
                Every word must match (a word also matches the start of a longer one; a single \
                letter only itself), in any case and with or without accents. Best first: a \
                match in a title counts most, then the author, the summary, the body. Searches \
                an index beside the cache, with no network: titles and summaries of the posts \
                blogctl list has shown, and the text of every cached body (blogctl read or \
                prefetch caches them). On a terminal a table with the matched words in bold; \
                piped, ID<TAB>TITLE<TAB>SNIPPET; --json. With subscriptions (blogctl feeds) \
                and no server named, every feed is searched, and a FEED column comes first.

                Examples:
                  blogctl search dijkstra letters
                  blogctl prefetch && blogctl search "software engineering" | cut -f1
                """)

        @Argument(help: ArgumentHelp("Words to find.", valueName: "word"))
        var words: [String] = []

        @Option(help: ArgumentHelp("Show at most this many posts.", valueName: "n"))
        var limit = 20

        @Flag(help: "Print JSON.")
        var json = false

        func validate() throws {
            if words.isEmpty { throw ValidationError("give at least one word") }
            if limit < 1 { throw ValidationError("--limit must be at least 1") }
        }

        @OptionGroup var pager: PagerOption

        @OptionGroup var server: ServerOption

        func run() throws {
            let mode = OutputMode(json: json)
            let hits: [SearchIndex.Hit]
            var idLength: Int?
            if let subscriptions = try SubscriptionListing.inUse(server: server.server) {
                hits = try SubscriptionSearch.search(subscriptions, words: words, limit: limit, marks: SearchQuery.marks, centred: mode == .table)
                // Long guid ids shown as list shows them: the start that tells them apart.
                if mode == .table, !hits.isEmpty { idLength = try SubscriptionSearch.idPrefixLength(subscriptions) }
            } else {
                hits = try PostCache.standard(server: try server.serverURL(tool: .blogctl)).search(words, limit: limit, marks: SearchQuery.marks,
                                                                                                     centred: mode == .table)
            }
            pager.print(SearchListing.render(hits, mode: mode, bold: Terminal.colorEnabled(), idLength: idLength))
            if hits.isEmpty { throw ExitCode(1) }
        }
    }
}
