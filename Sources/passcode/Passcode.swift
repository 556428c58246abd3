import ArgumentParser
import ToolboxKit

struct Passcode: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: Tool.passcode.name,
        abstract: "A dynamic passcode screen whose keypad order and code come from the server.",
        discussion: """
            Credentials: the user from --user or PASSCODE_USER, the password from \
            PASSCODE_PASSWORD or ~/.netrc, never from the command line.

            Examples:
              PASSCODE_USER=Runloop PASSCODE_PASSWORD='Run!@0p' passcode
              printf '1\\n2\\n3\\n4\\n' | passcode --script
              passcode --once && make deploy
              passcode fetch
            """,
        version: ToolboxVersion.line(for: "passcode"),
        subcommands: [Screen.self, Fetch.self, ConfigCommand.self],
        defaultSubcommand: Screen.self)
}

/// passcode, as the toolbox binary runs it when it is called by that name.
public func passcodeMain(arguments: [String]) -> Never { ToolMain.main(Passcode.self, arguments: arguments) }
