/// XDG base directories (https://specifications.freedesktop.org/basedir-spec/), with the
/// spec's defaults. A relative value is invalid by the spec and is ignored.
public struct Paths: Sendable, Equatable {
    public let cacheHome: String
    public let dataHome: String
    public let configHome: String
    public let stateHome: String
    public let home: String

    public init(environment: [String: String] = Environment.current) {
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? "/"
        func base(_ name: String, _ fallback: String) -> String {
            if let value = environment[name], value.hasPrefix("/") { return value }
            return Self.join(home, fallback)
        }
        self.home = home
        self.cacheHome = base("XDG_CACHE_HOME", ".cache")
        self.dataHome = base("XDG_DATA_HOME", ".local/share")
        self.configHome = base("XDG_CONFIG_HOME", ".config")
        self.stateHome = base("XDG_STATE_HOME", ".local/state")
    }

    /// `$XDG_CACHE_HOME/tool`
    public func cache(_ tool: Tool) -> String { Self.join(cacheHome, tool.name) }
    /// `$XDG_DATA_HOME/tool`
    public func data(_ tool: Tool) -> String { Self.join(dataHome, tool.name) }
    /// `$XDG_CONFIG_HOME/tool`
    public func config(_ tool: Tool) -> String { Self.join(configHome, tool.name) }
    /// `$XDG_STATE_HOME/tool`: what a tool remembers between runs (a screen's arrangement).
    public func state(_ tool: Tool) -> String { Self.join(stateHome, tool.name) }

    public static func join(_ base: String, _ component: String) -> String {
        base.hasSuffix("/") ? base + component : base + "/" + component
    }
}
