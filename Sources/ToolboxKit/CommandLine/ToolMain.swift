import ArgumentParser
import Dispatch
#if canImport(Glibc)
import Glibc
#endif

/// The entry point every binary uses: parse, run, and turn any error into one line on
/// stderr (`tool: message`) and the matching exit status. No stack traces, ever.
public enum ToolMain {
    /// The synchronous entry point of every binary (`static func main()`). `--version` alone
    /// is answered here, before the async runtime starts its threads and before ArgumentParser,
    /// whose reflection makes the Swift runtime scan every protocol conformance in the binary
    /// (NIO's conformances among them): it is the one answer scripts ask for most. Everything else runs
    /// in `run`, started on the main thread itself (`Task.immediate`, nonisolated): a command
    /// that never suspends (a local `eval -e`, `--help`) runs to its exit without the global
    /// executor ever starting its threads (a quarter to a third of a static hello's whole
    /// start-up). At its first real suspension the task continues on the global executor,
    /// and the main thread serves the main queue, as an `async` main's does.
    /// `arguments` are the command's own, after its name (the toolbox binary's dispatcher
    /// passes them on from `toolbox NAME ARGUMENTS`).
    public static func main<Command: ParsableCommand>(
        _ type: Command.Type, arguments: [String] = Array(CommandLine.arguments.dropFirst())
    ) -> Never {
        if arguments == ["--version"], !Command.configuration.version.isEmpty {
            StandardOutput.print(Command.configuration.version + "\n")
            exit(0)
        }
        Task.immediate { @concurrent in await run(type, arguments: arguments, fromCommandLine: true) }
        dispatchMain()  // Serves the main queue until `run` exits the process.
    }

    /// `fromCommandLine`: `arguments` are the process's own, whose bytes are checked too.
    public static func run<Command: ParsableCommand>(
        _ type: Command.Type, arguments: [String]? = nil, fromCommandLine: Bool = false
    ) async -> Never {
        let name = Command.configuration.commandName ?? "tool"
        Tool.runningName.withLock { $0 = name }
        let subcommands = Set(Command.configuration.subcommands.map { $0._commandName })
        var given = arguments ?? Array(CommandLine.arguments.dropFirst())
        // `--no-pager` anywhere before `--`, for every command, as git takes it: one rule.
        if let without = withoutNoPager(given) {
            given = without
            Pager.isDisabled = true
        }
        if let problem = ArgumentLimits.problem(given) { fail(name, .usage(problem)) }
        if arguments == nil || fromCommandLine, let problem = ArgumentLimits.invalidEncoding() { fail(name, .badData(problem)) }
        if let shell = completionShell(given) {
            StandardOutput.print(ShellCompletion.script(Command.completionScript(for: shell), shell: shell, tool: name))
            exit(0)
        }
        let command: any ParsableCommand
        let hoisted = LeadingOptions.hoisted(given, subcommands: subcommands)
        if let message = mistypedCommand(Command.self, given, path: name) { fail(name, .usage(message)) }
        do {
            command = try Command.parseAsRoot(hoisted)
        } catch {
            parserExit(Command.self, error)
        }
        do {
            try await execute(command)
            exit(0)
        } catch let error as ToolError {
            fail(name, error)
        } catch let error as ExitCode {
            exit(error.rawValue)
        } catch is CancellationError {
            fail(name, .interrupted)
        } catch {
            // --help, validation and other parser errors surface here from ArgumentParser's
            // own commands (help is a command whose run() throws); it knows how to report them.
            if error is CleanExit || error is ValidationError
                || String(reflecting: Swift.type(of: error)).hasPrefix("ArgumentParser.") {
                parserExit(Command.self, error)
            }
            fail(name, .bug(Terminal.sanitizeField(String(describing: error))))
        }
    }

    /// Runs the parsed command, opened to its own type first: a cast from a concrete type
    /// asks the runtime one question (does Eval conform?), where a cast from `any
    /// ParsableCommand` asks it of the existential type too, and each first question scans
    /// every conformance record in the binary.
    private static func execute<Parsed: ParsableCommand>(_ command: Parsed) async throws {
        if var asyncCommand = command as? any AsyncParsableCommand {
            try await asyncCommand.run()
        } else {
            var command = command
            try command.run()
        }
    }

    /// What ArgumentParser says of `error`, through the one sanitiser: help and other clean
    /// exits on stdout as they are written; an error on stderr with every line cleaned and
    /// cut, since it may echo any argument (a 130 KB one with ESC and BEL among them).
    static func parserExit<Command: ParsableCommand>(_ type: Command.Type, _ error: Error) -> Never {
        let code = Command.exitCode(for: error)
        let message = Command.fullMessage(for: error)
        if code == .success {
            if !message.isEmpty { StandardOutput.print(message + "\n") }
            exit(0)
        }
        let name = Command.configuration.commandName ?? "tool"
        for line in parserMessage(message, tool: name) { StandardError.write(line) }
        exit(code.rawValue)
    }

    /// Each line of a parser's message cleaned, and cut past 200 characters; its first line
    /// said as our own errors are (`condtest: unknown option '--bogus'`, as git says
    /// `error: unknown option`), not as ArgumentParser's `Error: Unknown option`. The usage
    /// lines after it stay, as git's do.
    static func parserMessage(_ message: String, tool: String) -> [String] {
        var lines = message.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            let clean = Terminal.sanitizeField(String(line))
            return clean.count > 200 ? String(clean.prefix(200)) + "…" : clean
        }
        if let first = lines.first, first.hasPrefix("Error: ") {
            let reason = first.dropFirst("Error: ".count)
            // "Unknown option '--x'. Did you mean '--y'?" as ours: "unknown option '--x'; did you mean '--y'?"
            let said = String(reason.prefix(1).lowercased() + reason.dropFirst())
            lines[0] = tool + ": " + said.replacing(". Did you mean ", with: "; did you mean ")
        }
        return lines
    }

    /// "Did you mean" for the first word that is no subcommand where one is expected, at any
    /// depth (`blogctl lst`, `blogctl cache lst`); nil when the words name commands, or where
    /// ArgumentParser's own answer is better (options, which it suggests itself).
    static func mistypedCommand(_ type: ParsableCommand.Type, _ words: [String], path: String) -> String? {
        let subcommands = type.configuration.subcommands
        guard !subcommands.isEmpty, type.configuration.defaultSubcommand == nil,
              let first = LeadingOptions.firstWord(words), let at = words.firstIndex(of: first) else { return nil }
        if let next = subcommands.first(where: { $0._commandName == first }) {
            return mistypedCommand(next, Array(words[(at + 1)...]), path: path + " " + first)
        }
        let names = subcommands.map { $0._commandName }.sorted() + ["help"]
        return CommandSuggestion.message(tool: path, word: first, names: names).map { $0 + " (see '\(path) --help')" }
    }

    /// `arguments` without `--no-pager` (before any `--`); nil when it is not there.
    static func withoutNoPager(_ arguments: [String]) -> [String]? {
        let end = arguments.firstIndex(of: "--") ?? arguments.endIndex
        guard arguments[..<end].contains("--no-pager") else { return nil }
        return arguments[..<end].filter { $0 != "--no-pager" } + arguments[end...]
    }

    /// The shell of `--generate-completion-script SHELL` (or `=SHELL`), whose script is ours to
    /// finish (`ShellCompletion`); nil for anything else, which ArgumentParser answers.
    static func completionShell(_ arguments: [String]) -> CompletionShell? {
        let flag = "--generate-completion-script"
        guard let first = arguments.first else { return nil }
        if first == flag, arguments.count == 2 { return CompletionShell(rawValue: arguments[1]) }
        if first.hasPrefix(flag + "="), arguments.count == 1 { return CompletionShell(rawValue: String(first.dropFirst(flag.count + 1))) }
        return nil
    }

    public static func fail(_ name: String, _ error: ToolError) -> Never {
        if error != .interrupted { StandardError.write("\(name): \(error.message)") }
        exit(error.exitStatus.rawValue)
    }
}
