import ArgumentParser
import CondtestKit
import ToolboxKit

extension Condtest {
    struct Explain: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "explain",
            abstract: "Show why a condition is true or false, as an indented tree.",
            discussion: """
                Every node shows its operands' actual values and its result; operands that a \
                short-circuit of and/or never evaluated are marked skipped. Exits 0 or 1 as eval does. \
                With --json, the same tree as JSON.

                Example:
                  condtest explain -e 'and(ne(arg1, "rollout.io"), containsString(arg1, "ro"))' rollout.io
                """)

        @OptionGroup var source: ConditionOptions
        @OptionGroup var common: CommonOptions
        @OptionGroup var pager: PagerOption

        @Argument(help: ArgumentHelp("The condition's id (omit with -f or -e), then its arguments.", valueName: "id-and-args"), completion: .custom { words, index, prefix in ConditionIDCompletion.candidates(before: Array(words.prefix(index)), prefix: prefix) })
        var words: [String] = []

        func run() async throws {
            let (origin, arguments) = try source.source(words)
            let record = try await source.load(origin, common)
            let explanation = Explanation.of(record.condition, arguments: try record.checkedArguments(arguments))
            if common.json {
                if !common.quiet { StandardOutput.printJSON(explanation) }
                if explanation.result == false { throw ExitCode(1) }
                return
            }
            let colour = Terminal.colorEnabled()
            let text = explanation.render { word, result in
                colour ? SGR.result(word, result) : word
            }
            if !common.quiet { pager.print(text) }
            if explanation.result == false { throw ExitCode(1) }
        }
    }
}
