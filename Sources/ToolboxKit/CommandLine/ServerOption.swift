import ArgumentParser

/// `--server` alone, for the commands that never reach a server but keep what they read per
/// server (`blogctl search`, `blogctl cache …`): the same option, resolved the same way, as
/// the networked commands' `CommonOptions`.
public struct ServerOption: ParsableArguments, Sendable {
    static var help: ArgumentHelp {
        ArgumentHelp("Server base URL (default: $\(Tool.running.serverVariable), then $TOOLBOX_SERVER, then http://127.0.0.1:8106).",
                     valueName: "url")
    }

    @Option(name: .long, help: ServerOption.help)
    public var server: String?

    public init() {}

    public func serverURL(tool: Tool) throws(ToolError) -> ServerURL {
        try Self.resolved(server, tool: tool)
    }

    /// The server `flag` names, else the environment's or config.yml's, else the default.
    public static func resolved(_ flag: String?, tool: Tool) throws(ToolError) -> ServerURL {
        try ServerURL.resolve(flag: flag, toolVariable: tool.serverVariable, configured: Settings.current.text(.server),
                              allowingQuery: tool.serverMayBeADocument)
    }
}
