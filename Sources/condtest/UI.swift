import ArgumentParser
import CondtestKit
import ToolboxKit

extension Condtest {
    struct UI: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "ui",
            abstract: "Browse and test the conditions on a full screen.",
            discussion: """
                The first screen lists the conditions' names: ↑/↓ or k/j, PgUp/PgDn, Home/End \
                move, / filters, Enter opens, r reloads, ? shows every key, q quits. The second \
                screen shows the condition, a field per argument, a Test button and the result, \
                which follows every edit; Enter tests and shows the explain tree. Tab and \
                Shift-Tab move between the fields and the button; on the button, a appends the \
                arguments and the result to the --cases file as a `condtest test` case line. \
                Esc goes back. Needs a terminal (exit 64 otherwise); Ctrl-C exits 130.

                Examples:
                  condtest ui
                  condtest ui --cases rollout.cases && condtest test rollout.cases
                """)

        @OptionGroup var common: CommonOptions

        @Option(help: ArgumentHelp("Append the cases made with a on the second screen to this file.", valueName: "file"))
        var cases: String?

        func run() async throws {
            let status = try await common.withClient(tool: .condtest, waitSpinner: false) { client in
                try await ConditionBrowser.run(client: client, casesPath: cases)
            }
            if status != 0 { throw ExitCode(status) }
        }
    }
}
