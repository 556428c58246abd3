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

                As a gate (--once, like pinentry): exit 0 at the first unlock, printing \
                nothing on stdout; 1 for q, or Esc (script: cancel) on an empty code, or input \
                that ends first; 130 for Ctrl-C; 124 after --idle-timeout seconds without a key \
                (with --once, --timeout sets it too); the server's error status after more \
                than --retries failed calls in a row.

                Examples:
                  passcode --once && make deploy
                  passcode --once --timeout 60 || echo "not unlocked"
                  printf '1\\n2\\n3\\n4\\n' | passcode --once --script
                """)

        @OptionGroup var credentials: CredentialOptions
        @OptionGroup var common: CommonOptions

        @Flag(help: "Read actions from stdin and print state changes, even on a terminal.")
        var script = false

        @Flag(help: "A gate: exit 0 at the first unlock, 1 when cancelled; print nothing.")
        var once = false

        @Option(name: .customLong("idle-timeout"),
                help: ArgumentHelp("End after this many seconds without a key, with status 124 (with --once, --timeout sets it too).",
                                   valueName: "seconds"))
        var idleTimeout: Double?

        func validate() throws {
            if let idleTimeout, !(idleTimeout > 0 && idleTimeout <= 86_400) {
                throw ValidationError("--idle-timeout must be between 0 and 86400 seconds")
            }
        }

        func run() async throws {
            let server = try common.serverURL(tool: .passcode)
            let login = try credentials.credentials(for: server)
            let scripted = script || !Terminal.isTTY(0) || !Terminal.isTTY(1)
            // Without --once the screen never gives up on the server: it shows the error and retries.
            let gate = GateOptions(once: once, idleTimeout: idleTimeout ?? (once ? common.requestedTimeout : nil),
                                   maxFailures: once || scripted ? common.retries : .max)
            let quiet = once || common.quiet
            let outcome = try await common.withClient(tool: .passcode, waitSpinner: false, credential: login.bound(to: server)) { client in
                let source = ServerInternalsSource(client: client)
                if scripted {
                    return try await ScriptRunner.run(source: source, maxFailures: common.retries, gate: gate) { line in
                        if !quiet { StandardOutput.print(Terminal.sanitize(line) + "\n") }
                    }
                }
                return try await PasscodeScreen.run(source: source, color: Terminal.colorEnabled(), gate: gate)
            }
            switch outcome {
            case .unlocked, .quit: return
            case .interrupted: throw ToolError.interrupted
            case .gaveUp(let error): throw error
            case .cancelled, .timedOut:
                if outcome == .timedOut {
                    let seconds = gate.idleTimeout ?? 0
                    Tool.passcode.say("no key for \(seconds.rounded() == seconds ? String(Int(seconds)) : String(seconds)) s: timed out")
                }
                throw ExitCode(outcome.exitStatus)
            }
        }
    }
}
