import Synchronization

/// Which tool is running. Its name is written once, in its Kit (`Tool.blogctl`), and gives
/// every message its prefix, the tool its `$NAME_SERVER` variable and its XDG folders.
public struct Tool: Sendable, Equatable {
    public let name: String
    /// Whether its server may be a document read at its own URL (blogctl's feeds), whose
    /// query is then kept, not refused (`ServerURL.query`).
    public let serverMayBeADocument: Bool

    public init(_ name: String, serverMayBeADocument: Bool = false) {
        self.name = name
        self.serverMayBeADocument = serverMayBeADocument
    }

    /// One tool, one name.
    public static func == (left: Tool, right: Tool) -> Bool { left.name == right.name }

    /// The tool this process is, set by `ToolMain` before any argument is parsed: for the help
    /// texts every tool shares (`--server`'s names the tool's own variable).
    public static var running: Tool { Tool(runningName.withLock { $0 } ?? "tool") }
    package static let runningName = Mutex<String?>(nil)

    /// The variable that names this tool's server (`BLOGCTL_SERVER`).
    public var serverVariable: String { name.uppercased() + "_SERVER" }

    /// One line on standard error, `name: message`.
    public func say(_ message: String) {
        StandardError.write("\(name): \(message)")
    }

    /// `name: warning: message`.
    public func warn(_ message: String) {
        say("warning: " + message)
    }
}
