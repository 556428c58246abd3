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
                let table = Table(columns: ["ID", "NAME"], rows: summaries.map { [$0.id, $0.name] },
                                  // The id gives way first, in its middle (both ends tell ids apart); then the name.
                                  fits: [.shrink(order: 0, minimum: 10, middle: true), .shrink(order: 1, minimum: 12)])
                pager.print(table.render(common.outputMode))
            }
        }
    }
}
