import ArgumentParser
import CondtestKit
import ToolboxKit

extension Condtest {
    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: "Show a condition: name, id, argument count and the condition in text syntax.",
            discussion: """
                Piped, one FIELD<TAB>VALUE line each for name, id, arguments and condition. \
                With --json, the record as normalised JSON.
                """)

        @OptionGroup var source: ConditionOptions
        @OptionGroup var common: CommonOptions
        @OptionGroup var pager: PagerOption

        @Argument(help: ArgumentHelp("The condition's id (omit with -f or -e).", valueName: "id"), completion: .custom { words, index, prefix in ConditionIDCompletion.candidates(before: Array(words.prefix(index)), prefix: prefix) })
        var id: String?

        func run() async throws {
            let (origin, rest) = try source.source(id.map { [$0] } ?? [])
            guard rest.isEmpty else { throw ValidationError("with -f or -e, show takes no id") }
            let record = try await source.load(origin, common)
            if common.json {
                StandardOutput.printJSON(record)
                return
            }
            let fields = [("name", record.name), ("id", record.id), ("arguments", String(record.argumentCount)),
                          ("condition", TextSyntax.format(record.condition))]
            pager.print(FieldList.render(fields, common.outputMode))
        }
    }
}
