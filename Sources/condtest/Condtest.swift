import ArgumentParser
import ToolboxKit

struct Condtest: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: Tool.condtest.name,
        abstract: "List, show, evaluate and explain feature-flag string conditions.",
        discussion: """
            A condition is a tree of operators over strings and arguments, written in JSON by \
            the conditions API or in text: and(ne(arg1, "rollout.io"), containsString(arg1, "ro")). \
            Comparison is exact: case-sensitive, Unicode scalar by scalar, no normalisation.

            Examples:
              condtest list
              condtest show 5b8f1c3e9d1a4c0012a3b003
              condtest eval 5b8f1c3e9d1a4c0012a3b003 rollout.io && echo on
              condtest explain -e 'containsString(arg1, "ro")' rollout.io
              printf 'rollout.io\\nrobot\\n' | condtest eval -f cond.json --batch
            """,
        version: ToolboxVersion.line(for: "condtest"),
        subcommands: [List.self, Show.self, Eval.self, Explain.self, Test.self, Fmt.self, Ops.self, UI.self, ConfigCommand.self])
}

/// condtest, as the toolbox binary runs it when it is called by that name.
public func condtestMain(arguments: [String]) -> Never { ToolMain.main(Condtest.self, arguments: arguments) }
