import ArgumentParser
import CondtestKit
import ToolboxKit

extension Condtest {
    struct Eval: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "eval",
            abstract: "Evaluate a condition with arguments: prints true or false, exits 0 or 1.",
            discussion: """
                Like test(1): exit 0 when the condition holds, 1 when it does not. With --batch, \
                one tab-separated argument tuple per stdin line and one true/false line out per \
                line in; the exit status is then 0 once every line was evaluated. The output \
                true/false is valid JSON as it is, so --json changes nothing.

                Examples:
                  condtest eval 5b8f1c3e9d1a4c0012a3b001 rollout.io
                  condtest eval -q -e 'startsWith(arg1, "ro")' robot && echo yes
                  cut -f1,2 pairs.tsv | condtest eval -f cond.json --batch
                """)

        @OptionGroup var source: ConditionOptions
        @OptionGroup var common: CommonOptions

        @Flag(help: "Read one tab-separated argument tuple per stdin line.")
        var batch = false

        @Argument(help: ArgumentHelp("The condition's id (omit with -f or -e), then its arguments.", valueName: "id-and-args"))
        var words: [String] = []

        func run() async throws {
            try ArgumentEncoding.validateCommandLine()
            let (origin, arguments) = try source.source(words)
            if batch && !arguments.isEmpty { throw ValidationError("--batch reads arguments from stdin; give none on the command line") }
            let record = try await source.load(origin, common)
            let evaluator = Evaluator(record.condition, argumentCount: record.argumentCount)
            if batch {
                var output = StandardOutput(lineBuffered: Terminal.isTTY(Terminal.standardOutput))
                try BatchEvaluator(evaluator).run(input: 0, output: &output)
                return
            }
            let result = evaluator.evaluate(try record.checkedArguments(arguments))
            if !common.quiet { StandardOutput.print(result ? "true\n" : "false\n") }
            if !result { throw ExitCode(1) }
        }
    }
}
