import ArgumentParser
import CondtestKit
import FoundationEssentials
import ToolboxKit

extension Condtest {
    struct Fmt: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "fmt",
            abstract: "Convert a condition between JSON and text syntax.",
            discussion: """
                Reads FILE or stdin. Input starting with { is JSON (a full record or bare \
                ConditionData), anything else text syntax. Without --to, JSON becomes text and \
                text becomes normalised JSON.

                Examples:
                  condtest fmt cond.json
                  echo 'eq(arg1, "rollout.io")' | condtest fmt
                """)

        enum Syntax: String, ExpressibleByArgument, CaseIterable { case json, text }

        @Option(help: ArgumentHelp("The syntax to write.", valueName: "json|text"))
        var to: Syntax?

        @Argument(help: ArgumentHelp("The file to read; - or none is stdin.", valueName: "file"))
        var file: String = "-"

        func run() async throws {
            let (condition, isJSON) = try ConditionLoader.loadEitherSyntax(file)
            switch to ?? (isJSON ? .text : .json) {
            case .text: StandardOutput.print(TextSyntax.format(condition) + "\n")
            case .json: StandardOutput.printJSON(condition)
            }
        }
    }
}
