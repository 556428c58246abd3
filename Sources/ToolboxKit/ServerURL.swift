/// Which server a tool talks to: `--server URL`, else the tool's own variable
/// (`CONDTEST_SERVER`, …), else `TOOLBOX_SERVER`, else mockd's default address.
public struct ServerURL: Sendable, Equatable, CustomStringConvertible {
    public static let defaultURL = "http://127.0.0.1:8106"

    /// Scheme, host and port, with no trailing slash: `http://127.0.0.1:8106`.
    public let base: String

    public init(_ text: String) throws(ToolError) {
        var value = text.trimmingSpaces()
        while value.hasSuffix("/") { value.removeLast() }
        let lower = value.lowercased()
        guard lower.hasPrefix("http://") || lower.hasPrefix("https://") else {
            throw .usage("invalid server URL \"\(Terminal.sanitize(text))\": it must start with http:// or https://")
        }
        let afterScheme = value[value.firstRange(of: "://")!.upperBound...]
        guard let first = afterScheme.first, first != "/", first != ":",
              !afterScheme.contains(where: { $0 == " " || $0 == "?" || $0 == "#" })
        else {
            throw .usage("invalid server URL \"\(Terminal.sanitize(text))\": it needs a host, and no query or fragment")
        }
        self.base = value
    }

    /// Resolves the server from the flag, the environment and the default, in that order.
    public static func resolve(flag: String?, toolVariable: String,
                               environment: [String: String] = Environment.current) throws(ToolError) -> ServerURL {
        if let flag { return try ServerURL(flag) }
        for name in [toolVariable, "TOOLBOX_SERVER"] {
            if let value = environment[name], !value.isEmpty { return try ServerURL(value) }
        }
        return try ServerURL(defaultURL)
    }

    /// The absolute URL of an API path (`/conditions/7`) or of an absolute URL given by the server.
    public func url(_ path: String) -> String {
        if path.hasPrefix("http://") || path.hasPrefix("https://") { return path }
        return path.hasPrefix("/") ? base + path : base + "/" + path
    }

    public var description: String { base }

    /// The host name, as ~/.netrc names machines: `127.0.0.1`, `api.example.com`.
    public var host: String {
        var rest = Substring(base[base.firstRange(of: "://")!.upperBound...])
        if let slash = rest.firstIndex(of: "/") { rest = rest[..<slash] }
        if let at = rest.lastIndex(of: "@") { rest = rest[rest.index(after: at)...] }
        if rest.hasPrefix("["), let close = rest.firstIndex(of: "]") { return String(rest[rest.index(after: rest.startIndex)..<close]) }
        if let colon = rest.lastIndex(of: ":") { rest = rest[..<colon] }
        return String(rest)
    }
}

extension String {
    /// The string without leading and trailing white space.
    public func trimmingSpaces() -> String {
        var view = Substring(self)
        while let first = view.first, first.isWhitespace { view.removeFirst() }
        while let last = view.last, last.isWhitespace { view.removeLast() }
        return String(view)
    }
}
