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

                With --all, every condition the server lists is evaluated with the same \
                arguments (--jobs fetched at once): ID, NAME and true, false or error: MESSAGE \
                per line (a table on a terminal, TSV when piped, JSON with --json). A condition \
                that cannot be loaded or needs more arguments is reported on its line; the exit \
                status is 0 when all were evaluated, 65 when one was ill-formed or needed more \
                arguments.

                Examples:
                  condtest eval 5b8f1c3e9d1a4c0012a3b001 rollout.io
                  condtest eval -q -e 'startsWith(arg1, "ro")' robot && echo yes
                  cut -f1,2 pairs.tsv | condtest eval -f cond.json --batch
                  condtest eval --all rollout.io | grep 'true$'
                """)

        @OptionGroup var source: ConditionOptions
        @OptionGroup var common: CommonOptions
        @OptionGroup var pager: PagerOption

        @Flag(help: "Read one tab-separated argument tuple per stdin line.")
        var batch = false

        @Flag(help: "Evaluate every condition the server lists with these arguments.")
        var all = false

        // Int? and the default in the help, as --timeout: a default value makes ArgumentParser
        // describe it (String(describing:) on an Int) on every parse, three conformance scans
        // of the whole binary on the path of every local `eval`.
        @Option(help: ArgumentHelp("With --all: conditions fetched at once (default: 8).", valueName: "n"))
        var jobs: Int?
        var jobCount: Int { jobs ?? 8 }

        @Argument(help: ArgumentHelp("The condition's id (omit with -f or -e), then its arguments.", valueName: "id-and-args"), completion: .custom { words, index, prefix in ConditionIDCompletion.candidates(before: Array(words.prefix(index)), prefix: prefix) })
        var words: [String] = []

        func validate() throws {
            guard (1...64).contains(jobCount) else { throw ValidationError("--jobs must be between 1 and 64") }
            if all && (source.file != nil || source.expression != nil || batch) {
                throw ValidationError("--all evaluates the server's conditions; it takes no -f, -e or --batch")
            }
        }

        func run() async throws {
            if all { return try await evaluateAll() }
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

        /// `--all`: every listed condition with the same arguments, one line each.
        func evaluateAll() async throws {
            let progress = ProgressDisplay(label: "evaluating", enabled: common.showsProgress, unit: .items)
            progress.start()
            let outcomes = try await common.withClient(tool: .condtest, waitSpinner: false) { client in
                try await ConditionSweep.run(client: client, arguments: words, jobs: jobCount,
                                             warn: { Tool.condtest.warn("" + $0) },
                                             progress: { progress.update(done: Int64($0), total: Int64($1)) })
            }
            progress.finish()
            let mode = OutputMode(json: common.json)
            if mode == .json {
                StandardOutput.printJSON(outcomes)
            } else if !common.quiet {
                let ids = mode == .table ? IDPrefix.shortened(outcomes.map(\.id)) : outcomes.map(\.id)
                let rows = zip(ids, outcomes).map { id, outcome in
                    [id, outcome.name, outcome.value.map { $0 ? "true" : "false" } ?? "error: " + (outcome.error?.brief ?? "")]
                }
                // Ids, paging and narrowing as `list`: the name gives way, the answer stays (5
                // columns: true and false whole, an error cut at its end).
                pager.print(Table(columns: ["ID", "NAME", "RESULT"], rows: rows,
                                  fits: [.keep, .shrink(order: 0, minimum: 8), .shrink(order: 1, minimum: 5)]).render(mode))
            }
            let status = ConditionSweep.exitStatus(outcomes)
            if status != .success { throw ExitCode(status.rawValue) }
        }
    }
}
