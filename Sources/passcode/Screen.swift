import ArgumentParser
import PasscodeKit
import ToolboxKit

extension Passcode {
    struct Screen: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "screen",
            abstract: "Show the passcode screen; in script mode, read actions and print state changes.",
            discussion: """
                On a terminal: press a button by typing its digit, with the arrow keys and \
                Enter, or with a mouse click; Backspace is delete, Esc is cancel, q quits (status 0), Ctrl-C too (status 130).

                When stdin is not a terminal, or with --script, one action per line (a digit, \
                delete, cancel) and one line out per state change: loading, \
                "ready 3 9 0 7 1 8 2 6 5 4", "progress 2", unlocked, rejected, "error MESSAGE". \
                Unlike the screen, an action read while loading waits for ready. After more \
                than --retries failed calls in a row, script mode exits with the error's status.
                """)

        @OptionGroup var credentials: CredentialOptions
        @OptionGroup var common: CommonOptions

        @Flag(help: "Read actions from stdin and print state changes, even on a terminal.")
        var script = false

        func run() async throws {
            let server = try common.serverURL(tool: "passcode")
            let login = try credentials.credentials(for: server)
            let scripted = script || !Terminal.isTTY(0) || !Terminal.isTTY(1)
            try await common.withClient(tool: "passcode") { client in
                let source = ServerInternalsSource(client: client, credentials: login)
                if scripted {
                    try await ScriptRunner.run(source: source, maxFailures: common.retries) { line in
                        StandardOutput.print(Terminal.sanitize(line) + "\n")
                    }
                } else {
                    try await ScreenApp.run(source: source, color: Terminal.colorEnabled())
                }
            }
        }
    }
}
