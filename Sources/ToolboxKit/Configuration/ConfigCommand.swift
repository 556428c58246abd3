import ArgumentParser

/// `TOOL config`: every effective setting and where it came from, as `git config
/// --show-origin` shows them: a variable, config.yml (file:line, the tool's mapping or the
/// shared top), or the default. A flag given to a command wins over all of these.
public struct ConfigCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Show every setting in effect and where it comes from.",
        discussion: """
            Settings come, first to last, from a command's flag, the tool's variable \
            ($NAME_SERVER), a TOOLBOX_* or standard variable (http_proxy, SSL_CERT_FILE, PAGER), \
            the tool's mapping in $XDG_CONFIG_HOME/toolbox/config.yml, its shared top, the \
            default. Keys are named as the long options: server, timeout, connect-timeout, \
            retries, proxy, noproxy, cacert, pager. Piped, KEY<TAB>VALUE<TAB>ORIGIN lines.

            Example config.yml:
              # every tool
              timeout: 10
              devsync:
                server: https://devices.example.com   # only devsync
                retries: 5
            """)

    public init() {}

    public func run() throws {
        let settings = Settings.current
        let rows = Self.rows(tool: Tool.running, settings: settings, environment: Environment.current)
        let mode = OutputMode(json: false)
        if mode == .table {
            let state = !FileTrust.exists(settings.path) ? " (none)"
                : FileTrust.problem(settings.path, limit: Settings.sizeLimit).map { " (not used: \($0))" } ?? ""
            StandardOutput.print("file: " + Terminal.sanitizeField(settings.path + state) + "\n")
        }
        StandardOutput.print(Table(columns: ["KEY", "VALUE", "ORIGIN"], rows: rows,
                                   fits: [.keep, .shrink(order: 0, minimum: 12, middle: true), .shrink(order: 1, minimum: 10)]).render(mode))
    }

    /// Each key: its value and origin.
    static func rows(tool: Tool, settings: Settings, environment: [String: String]) -> [[String]] {
        func variable(_ names: [String]) -> [String]? {
            names.first { !(environment[$0] ?? "").isEmpty }.map { [environment[$0]!, "$" + $0] }
        }
        func configured(_ key: Settings.Key) -> [String]? { settings.values[key].map { [$0.text, $0.origin] } }
        let order: [(Settings.Key, [String], [String])] = [
            (.server, [tool.serverVariable, "TOOLBOX_SERVER"], [ServerURL.defaultURL, "default"]),
            (.timeout, [], ["30", "default"]),
            (.connectTimeout, [], ["the timeout", "default"]),
            (.retries, [], ["2", "default"]),
            (.proxy, ["https_proxy", "HTTPS_PROXY", "http_proxy", "all_proxy", "ALL_PROXY"], ["none", "default"]),
            (.noproxy, ["no_proxy", "NO_PROXY"], ["none", "default"]),
            (.cacert, ["SSL_CERT_FILE", "SSL_CERT_DIR"], ["the system's", "default"]),
            (.pager, ["PAGER"], ["less -R (LESS=FRX)", "default"]),
        ] + (tool.name == "blogctl" ? [(.maxAge, ["BLOGCTL_MAX_AGE"], ["300", "default"]), (.maxItems, [], ["all", "default"])] : [])
        // Passwords in URLs are shown as errors show them: `user:***@host`.
        return order.map { key, names, fallback in
            let row = variable(names) ?? configured(key) ?? fallback
            return [key.rawValue, key == .server || key == .proxy ? ServerURL.redacted(row[0]) : row[0], row[1]]
        }
    }
}
