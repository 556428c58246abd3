import ArgumentParser
import BlogctlKit
import ToolboxKit

extension Blogctl {
    struct Links: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "links",
            abstract: "List a post's links, numbered as read numbers them.",
            discussion: """
                N<TAB>URL per line (an aligned list on a terminal, a JSON array of {"number", \
                "url"} with --json), relative links resolved against the post's URL. blogctl open \
                ID N opens link N.

                Example:
                  blogctl links 1 | grep github
                """)

        @Argument(help: "The post's id (as list shows it).", completion: .custom { words, index, prefix in PostIDCompletion.candidates(before: Array(words.prefix(index)), prefix: prefix) })
        var id: String

        @Flag(help: "Use only the cache: no network.")
        var offline = false

        @OptionGroup var common: CommonOptions
        @OptionGroup var freshness: FreshnessOption

        @OptionGroup var pager: PagerOption

        struct Link: Encodable {
            let number: Int
            let url: String
        }

        func run() async throws {
            let (_, links) = try await loadPostAndLinks(id, offline: offline, maxAge: freshness.seconds, common: common)
            if common.json {
                StandardOutput.printJSON(links.enumerated().map { Link(number: $0.offset + 1, url: $0.element) })
                return
            }
            let table = Table(columns: ["N", "URL"], rows: links.enumerated().map { [String($0.offset + 1), $0.element] },
                              fits: [.keep, .shrink(order: 0, minimum: 10, middle: true)])
            pager.print(table.render(common.outputMode))
        }
    }
}
