import ArgumentParser
import BlogctlKit
import ToolboxKit

extension PostGrouping: ExpressibleByArgument {}
extension PostSorting: ExpressibleByArgument {}

extension Blogctl {
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List every post's date, author, title and summary, grouped and sorted.",
            discussion: """
                Author groups run A to Z, month groups newest first. Inside a group: date newest \
                first, title or author A to Z; --reverse flips that order. On a terminal, a table \
                under group headers; piped, ID<TAB>DATE<TAB>AUTHOR<TAB>TITLE<TAB>SUMMARY lines with \
                a GROUP column first when grouped; with --json, the metadata objects with "group". \
                Uses /post-metadata only.
                """)

        @Option(name: .customLong("group-by"), help: "Group by none, author or month.")
        var groupBy: PostGrouping = .none

        @Option(name: .customLong("sort-by"), help: "Sort by date, title or author inside each group.")
        var sortBy: PostSorting = .date

        @Flag(help: "Reverse the order inside each group.")
        var reverse = false

        @OptionGroup var common: CommonOptions

        func run() async throws {
            let posts = try await common.withClient(tool: "blogctl") { api in
                try await BlogClient(api: api).metadataList { StandardError.write("blogctl: warning: " + $0) }
            }
            let groups = PostOrdering(grouping: groupBy, sorting: sortBy, reversed: reverse).arrange(posts)
            StandardOutput.print(PostListing.render(groups, grouped: groupBy != .none, mode: common.outputMode))
        }
    }
}
