import ArgumentParser
import CondtestKit
import ToolboxKit

extension Condtest {
    struct Ops: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "ops",
            abstract: "List the operators condtest knows, with their arity and what they test.",
            discussion: "Printed from the operator registry itself. Piped: NAME<TAB>ARITY<TAB>TAKES<TAB>DESCRIPTION.")

        @Flag(help: "Print JSON instead of a table or tab-separated lines.")
        var json = false

        struct Row: Encodable { let name: String; let arity: String; let takes: String; let description: String }

        @OptionGroup var pager: PagerOption

        func run() async throws {
            let rows = OperatorRegistry.standard.entries.map {
                Row(name: $0.name, arity: $0.arity.description, takes: $0.kind.rawValue, description: $0.summary)
            }
            let mode = OutputMode(json: json)
            if mode == .json {
                StandardOutput.printJSON(rows)
                return
            }
            let table = Table(columns: ["NAME", "ARITY", "TAKES", "DESCRIPTION"],
                              rows: rows.map { [$0.name, $0.arity, $0.takes, $0.description] })
            pager.print(table.render(mode))
        }
    }
}
