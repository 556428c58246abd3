/// Which proxy a request goes through, chosen as curl chooses: `--proxy`, else the scheme's
/// variable (`http_proxy` for http — never upper-case `HTTP_PROXY`, which a CGI program may
/// have had set by a request header (httpoxy) — `https_proxy` or `HTTPS_PROXY` for https), else
/// `all_proxy`/`ALL_PROXY`; none when the host matches `--noproxy` or `no_proxy`/`NO_PROXY`.
public struct ProxyChoice: Sendable, Equatable {
    public enum Kind: Sendable, Equatable { case http, socks5 }
    public let kind: Kind
    public let host: String
    public let port: Int
    public let user: String?
    public let password: String?

    public static func resolve(for server: ServerURL, flag: String?, noproxyFlag: String?,
                               environment: [String: String] = Environment.current) throws(ToolError) -> ProxyChoice? {
        let exclusions = noproxyFlag ?? environment["no_proxy"] ?? environment["NO_PROXY"] ?? ""
        if matches(host: server.host, exclusions) { return nil }
        let https = server.base.lowercased().hasPrefix("https://")
        let candidates = [flag, https ? environment["https_proxy"] ?? environment["HTTPS_PROXY"] : environment["http_proxy"],
                          environment["all_proxy"], environment["ALL_PROXY"]]
        guard let text = candidates.compactMap({ $0 }).first(where: { !$0.isEmpty }) else { return nil }
        return try parse(text)
    }

    /// `http://user:password@host:port`, `socks5://host:port`, or `host[:port]` (http,
    /// port 1080 as curl assumes).
    public static func parse(_ text: String) throws(ToolError) -> ProxyChoice {
        var rest = Substring(text.trimmingSpaces())
        var kind = Kind.http
        if let schemeEnd = rest.firstRange(of: "://") {
            switch rest[..<schemeEnd.lowerBound].lowercased() {
            case "http": kind = .http
            case "socks5", "socks5h": kind = .socks5
            default:
                throw .usage("unsupported proxy \(Terminal.quote(ServerURL.redacted(text))): use an http:// or socks5:// proxy")
            }
            rest = rest[schemeEnd.upperBound...]
        }
        if let slash = rest.firstIndex(of: "/") { rest = rest[..<slash] }
        var user: String?
        var password: String?
        if let at = rest.lastIndex(of: "@") {
            let userinfo = rest[..<at]
            let colon = userinfo.firstIndex(of: ":")
            user = PercentEncoding.decodeLeniently(colon.map { userinfo[..<$0] } ?? userinfo)
            password = colon.map { PercentEncoding.decodeLeniently(userinfo[userinfo.index(after: $0)...]) } ?? ""
            rest = rest[rest.index(after: at)...]
        }
        var host = rest
        var port = 1080
        if rest.hasPrefix("["), let close = rest.firstIndex(of: "]") {
            host = rest[rest.index(after: rest.startIndex)..<close]
            let after = rest[rest.index(after: close)...]
            if after.hasPrefix(":") { port = Int(after.dropFirst()) ?? -1 }
        } else if let colon = rest.lastIndex(of: ":") {
            host = rest[..<colon]
            port = Int(rest[rest.index(after: colon)...]) ?? -1
        }
        guard !host.isEmpty, (1...65535).contains(port) else {
            throw .usage("invalid proxy \(Terminal.quote(ServerURL.redacted(text))): it needs a host and a port from 1 to 65535")
        }
        return ProxyChoice(kind: kind, host: String(host), port: port, user: user, password: password)
    }

    /// Whether `host` is excluded by a `no_proxy` list: `*`; or comma- or space-separated
    /// names, each matching itself and every host under it (`example.com` and `.example.com`
    /// match `api.example.com`); or IP addresses, matched exactly. Case does not matter.
    public static func matches(host: String, _ list: String) -> Bool {
        let host = host.lowercased()
        for entry in list.split(whereSeparator: { $0 == "," || $0 == " " }) {
            var pattern = String(entry).trimmingSpaces().lowercased()
            if pattern == "*" { return true }
            if pattern.hasPrefix("[") && pattern.hasSuffix("]") { pattern = String(pattern.dropFirst().dropLast()) }
            while pattern.hasPrefix(".") { pattern.removeFirst() }
            guard !pattern.isEmpty else { continue }
            if host == pattern || host.hasSuffix("." + pattern) { return true }
        }
        return false
    }

    /// `host:port` with the user, never the password, for messages.
    public var description: String { (user.map { $0 + ":***@" } ?? "") + host + ":" + String(port) }
}
