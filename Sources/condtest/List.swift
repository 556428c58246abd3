import ArgumentParser
import CondtestKit
import ToolboxKit

extension Condtest {
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List the conditions on the server: id and name.",
            discussion: "On a terminal, a table; piped, ID<TAB>NAME lines; with --json, the server's objects.")

        @OptionGroup var common: CommonOptions

        @OptionGroup var pager: PagerOption

        func run() async throws {
            let summaries = try await common.withClient(tool: .condtest) { client in
                try await ConditionLoader.list(client: client) { Tool.condtest.warn("" + $0) }
            }
            ConditionIDCompletion.save(summaries)
            switch common.outputMode {
            case .json:
                StandardOutput.printJSON(summaries)
            case .table, .tsv:
                // On a terminal, ids as git shows hashes: the shortest start that tells them
                // apart, which `show`, `eval` and completion take back; piped, whole.
                let ids = common.outputMode == .table ? IDPrefix.shortened(summaries.map(\.id)) : summaries.map(\.id)
                let table = Table(columns: ["ID", "NAME"], rows: zip(ids, summaries).map { [$0, $1.name] },
                                  fits: [.keep, .shrink(order: 0, minimum: 12)])
                pager.print(table.render(common.outputMode))
            }
        }
    }
}
