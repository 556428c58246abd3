import ArgumentParser

/// The options every networked subcommand shares, reused with `@OptionGroup`.
public struct CommonOptions: ParsableArguments, Sendable {
    @Option(name: .long, help: ServerOption.help)
    public var server: String?

    @Option(name: .customLong("timeout"), help: ArgumentHelp(
        "Seconds for the whole of a request, body and retries included; a download with progress: under 1 KiB/s for this long ends it (default: 30).",
        valueName: "seconds"))
    public var requestedTimeout: Double?

    /// `--timeout`, else config.yml's, else 30 seconds. `requestedTimeout` tells whether it
    /// was given (passcode's gate takes it as its idle limit too).
    public var timeout: Double { requestedTimeout ?? Settings.current.number(.timeout) ?? 30 }

    @Option(name: .customLong("connect-timeout"), help: ArgumentHelp("Seconds to establish a connection (default: --timeout).", valueName: "seconds"))
    public var connectTimeout: Double?

    @Option(name: .long, help: ArgumentHelp("Trust the certificates in this PEM file instead of the system's.", valueName: "file"))
    public var cacert: String?

    @Flag(name: [.customShort("k"), .long], help: "Do not check the server's TLS certificate (prints a warning).")
    public var insecure = false

    @Option(name: .long, help: ArgumentHelp("Use this proxy: http://[user:password@]host:port or socks5://host:port.", valueName: "url"))
    public var proxy: String?

    @Flag(name: .long, help: "Reach an http:// server through the proxy's CONNECT tunnel too, not with absolute-form requests (curl's -p).")
    public var proxytunnel = false

    @Option(name: .long, help: ArgumentHelp("Hosts reached without a proxy: a comma-separated list of names, domains and addresses, or *.", valueName: "list"))
    public var noproxy: String?

    @Option(name: .customLong("retries"), help: ArgumentHelp(
        "Times a failed try is made again, with exponential backoff: a request after a connection error, timeout or 5xx; a change devsync syncs; a passcode call.",
        valueName: "n"))
    public var retriesOption: Int?

    /// `--retries`, else config.yml's, else 2.
    public var retries: Int { retriesOption ?? Settings.current.integer(.retries) ?? 2 }

    @Flag(name: .long, help: "Print JSON instead of a table or tab-separated lines.")
    public var json = false

    @Flag(name: [.short, .long], help: "Print no progress, and no result where the exit status says it.")
    public var quiet = false

    @Flag(name: [.short, .long], help: "Print each request and response status line on stderr.")
    public var verbose = false

    public init() {}

    public func validate() throws {
        guard timeout > 0, timeout <= 86_400 else { throw ValidationError("--timeout must be between 0 and 86400 seconds") }
        if let connectTimeout, !(connectTimeout > 0 && connectTimeout <= 86_400) {
            throw ValidationError("--connect-timeout must be between 0 and 86400 seconds")
        }
        if let retriesOption, !(0...20).contains(retriesOption) { throw ValidationError("--retries must be between 0 and 20") }
    }

    /// The output mode for results: `--json`, else a table on a terminal, else TSV.
    public var outputMode: OutputMode { OutputMode(json: json) }

    /// Progress on stderr only when it is a terminal and `--quiet` is absent.
    public var showsProgress: Bool { !quiet && Terminal.isTTY(Terminal.standardError) }

    /// The server for `tool`: `--server`, `$TOOL_SERVER`, `$TOOLBOX_SERVER`, the default.
    public func serverURL(tool: Tool) throws(ToolError) -> ServerURL {
        try ServerURL.resolve(flag: server, toolVariable: tool.serverVariable, configured: Settings.current.text(.server),
                              allowingQuery: tool.serverMayBeADocument)
    }

    /// The network settings these options and the environment give for `server`.
    public func network(for server: ServerURL, environment: [String: String] = Environment.current) throws(ToolError) -> APIClient.Network {
        let settings = Settings.current
        return APIClient.Network(timeout: timeout, connectTimeout: connectTimeout ?? settings.number(.connectTimeout), retries: retries,
                          trust: TrustStore.resolve(cacert: cacert ?? Self.configuredCacert(settings, environment), environment: environment), insecure: insecure,
                          proxy: try ProxyChoice.resolve(for: server, flag: proxy, noproxyFlag: noproxy, environment: environment,
                                                         configured: settings.text(.proxy), configuredExclusions: settings.text(.noproxy)),
                          proxyTunnel: proxytunnel)
    }

    /// config.yml's cacert, unless a variable names the trust (variables come first).
    static func configuredCacert(_ settings: Settings, _ environment: [String: String]) -> String? {
        let named = ["SSL_CERT_FILE", "SSL_CERT_DIR"].contains { environment[$0].map { !$0.isEmpty } ?? false }
        return named ? nil : settings.text(.cacert)
    }

    /// Runs `body` with a client configured from these options, shut down afterwards.
    /// `waitSpinner`: on a terminal (and without `--quiet` or `-v`), a spinner on stderr once
    /// the work has waited a second, as gh shows one, cleared before the work returns; off for
    /// commands that draw their own progress or screen.
    /// `credential`: what the client may send, and where (default: the server URL's own).
    /// `server`: another server than the one the options name (blogctl's subscriptions).
    /// `shared`: the run's HTTP clients, whose connections the client shares (a refresh of
    /// many feeds); nil: a client of its own.
    public func withClient<T>(tool: Tool, server other: ServerURL? = nil, waitSpinner: Bool = true, credential: Credential? = nil,
                              shared: HTTPClients? = nil, _ body: (APIClient) async throws -> T) async throws -> T {
        let verboseSink: (@Sendable (String) -> Void)? = verbose ? { @Sendable line in StandardError.write(line) } : nil
        let server = try other ?? serverURL(tool: tool)
        let network = try network(for: server)
        if insecure && server.isHTTPS {
            tool.warn("-k: the certificate of \(server.host) is not checked")
        }
        if verbose, let proxy = network.proxy { StandardError.write("* through the proxy \(proxy.description)") }
        let spinner = waitSpinner && showsProgress && !verbose ? ProgressDisplay(label: "waiting for " + server.description, enabled: true) : nil
        let starter = spinner.map { spinner in
            Task {
                try? await Task.sleep(for: .seconds(1))
                guard !Task.isCancelled else { return }
                Interrupt.clearLineAndExit()
                spinner.start()
            }
        }
        defer {
            starter?.cancel()
            spinner?.finish()
        }
        return try await APIClient.using(try APIClient(server: server, network: network, credential: credential, verbose: verboseSink,
                                                       shared: shared), body)
    }
}
