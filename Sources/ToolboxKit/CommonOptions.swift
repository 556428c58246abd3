import ArgumentParser

/// The options every networked subcommand shares, reused with `@OptionGroup`.
public struct CommonOptions: ParsableArguments, Sendable {
    @Option(name: .long, help: ArgumentHelp(
        "Server base URL (default: $TOOL_SERVER, then $TOOLBOX_SERVER, then http://127.0.0.1:8106).",
        valueName: "url"))
    public var server: String?

    @Option(name: .long, help: ArgumentHelp("Seconds to wait for a connection and for each request.", valueName: "seconds"))
    public var timeout: Double = 30

    @Option(name: .long, help: ArgumentHelp(
        "Retries of a read on connection errors, timeouts and 5xx answers, with exponential backoff.",
        valueName: "n"))
    public var retries: Int = 2

    @Flag(name: .long, help: "Print JSON instead of a table or tab-separated lines.")
    public var json = false

    @Flag(name: [.short, .long], help: "Print no progress, and no result where the exit status says it.")
    public var quiet = false

    @Flag(name: [.short, .long], help: "Print each request and response status line on stderr.")
    public var verbose = false

    public init() {}

    public func validate() throws {
        guard timeout > 0, timeout <= 86_400 else { throw ValidationError("--timeout must be between 0 and 86400 seconds") }
        guard (0...20).contains(retries) else { throw ValidationError("--retries must be between 0 and 20") }
    }

    /// The output mode for results: `--json`, else a table on a terminal, else TSV.
    public var outputMode: OutputMode { OutputMode(json: json) }

    /// Progress on stderr only when it is a terminal and `--quiet` is absent.
    public var showsProgress: Bool { !quiet && Terminal.isTTY(Terminal.standardError) }

    /// The server for `tool`: `--server`, `$TOOL_SERVER`, `$TOOLBOX_SERVER`, the default.
    public func serverURL(tool: String) throws(ToolError) -> ServerURL {
        try ServerURL.resolve(flag: server, toolVariable: tool.uppercased() + "_SERVER")
    }

    /// Runs `body` with a client configured from these options, shut down afterwards.
    public func withClient<T>(tool: String, _ body: (APIClient) async throws -> T) async throws -> T {
        let verboseSink: (@Sendable (String) -> Void)? = verbose ? { @Sendable line in StandardError.write(line) } : nil
        return try await APIClient.using(server: try serverURL(tool: tool), timeout: timeout, retries: retries,
                                         verbose: verboseSink, body)
    }
}
