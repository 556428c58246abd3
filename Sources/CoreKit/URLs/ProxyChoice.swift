#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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

    /// `configured` and `configuredExclusions` (config.yml) come after the variables.
    public static func resolve(for server: ServerURL, flag: String?, noproxyFlag: String?,
                               environment: [String: String] = Environment.current,
                               configured: String? = nil, configuredExclusions: String? = nil) throws(ToolError) -> ProxyChoice? {
        let exclusions = noproxyFlag ?? environment["no_proxy"] ?? environment["NO_PROXY"] ?? configuredExclusions ?? ""
        if matches(host: server.host, exclusions) { return nil }
        let https = server.isHTTPS
        let candidates = [flag, https ? environment["https_proxy"] ?? environment["HTTPS_PROXY"] : environment["http_proxy"],
                          environment["all_proxy"], environment["ALL_PROXY"], configured]
        guard let text = candidates.compactMap({ $0 }).first(where: { !$0.isEmpty }) else { return nil }
        return try parse(text)
    }

    /// `http://user:password@host:port`, `socks5://host:port`, or `host[:port]` (http,
    /// port 1080 as curl assumes).
    public static func parse(_ text: String) throws(ToolError) -> ProxyChoice {
        var rest = Substring(text.trimmingSpaces())
        var kind = Kind.http
        if let schemeEnd = rest.schemeEnd {
            switch rest[..<rest.utf8.index(schemeEnd, offsetBy: -3)].lowercased() {
            case "http": kind = .http
            case "socks5", "socks5h": kind = .socks5
            default:
                throw .usage("unsupported proxy \(Terminal.quote(ServerURL.redacted(text))): use an http:// or socks5:// proxy")
            }
            rest = rest[schemeEnd...]
        }
        let userInfo: URLUserInfo?
        (userInfo, rest) = URLUserInfo.split(rest)
        // By bytes: a `/` followed by a combining mark is one Character.
        if let slash = rest.utf8.firstIndex(of: UInt8(ascii: "/")) { rest = rest[..<slash] }
        var host = rest
        var port = 1080
        if rest.utf8.first == UInt8(ascii: "["), let close = rest.utf8.firstIndex(of: UInt8(ascii: "]")) {
            host = rest[rest.utf8.index(after: rest.startIndex)..<close]
            let after = rest[rest.utf8.index(after: close)...]
            if after.utf8.first == UInt8(ascii: ":") { port = Int(String(after.utf8.dropFirst()) ?? "") ?? -1 }
        } else if let colon = rest.utf8.lastIndex(of: UInt8(ascii: ":")) {
            host = rest[..<colon]
            port = Int(rest[rest.utf8.index(after: colon)...]) ?? -1
        }
        guard !host.isEmpty, (1...65535).contains(port) else {
            throw .usage("invalid proxy \(Terminal.quote(ServerURL.redacted(text))): it needs a host and a port from 1 to 65535")
        }
        return ProxyChoice(kind: kind, host: String(host), port: port, user: userInfo?.user, password: userInfo?.password)
    }

    /// Whether `host` is excluded by a `no_proxy` list: `*`; or comma- or space-separated
    /// entries: a name matches itself and every host under it (`example.com` and
    /// `.example.com` match `api.example.com`); an IP address matches only that address, and
    /// a CIDR range (`10.0.0.0/8`, `fd00::/8`) the addresses in it, as curl does. Case does
    /// not matter.
    public static func matches(host: String, _ list: String) -> Bool {
        var host = host.asciiLowercased
        if host.utf8.first == UInt8(ascii: "["), host.utf8.last == UInt8(ascii: "]") { host = String(host.utf8.dropFirst().dropLast()) ?? host }
        let address = IPAddress(host)
        for entry in list.split(whereSeparator: { $0 == "," || $0 == " " }) {
            var pattern = String(entry).trimmingSpaces().asciiLowercased
            if pattern == "*" { return true }
            if pattern.utf8.first == UInt8(ascii: "["), pattern.utf8.last == UInt8(ascii: "]") { pattern = String(pattern.utf8.dropFirst().dropLast()) ?? pattern }
            if let slash = pattern.utf8.firstIndex(of: UInt8(ascii: "/")) {
                if let address, let network = IPAddress(String(pattern[..<slash])),
                   let bits = Int(pattern[pattern.utf8.index(after: slash)...]), address.isIn(network, prefix: bits) { return true }
                continue
            }
            if let entryAddress = IPAddress(pattern) {
                if entryAddress == address { return true }
                continue
            }
            while pattern.utf8.first == UInt8(ascii: ".") { pattern = String(pattern.utf8.dropFirst())! }
            guard !pattern.isEmpty, address == nil else { continue }
            // By bytes: a host is no text to compare by canonical equivalence, and a Character
            // search misses a match whose first scalar fuses with what precedes it.
            let hostBytes = Array(host.utf8)
            let patternBytes = Array(pattern.utf8)
            if hostBytes == patternBytes || hostBytes.suffix(patternBytes.count + 1).elementsEqual([UInt8(ascii: ".")] + patternBytes) {
                return true
            }
        }
        return false
    }

    /// An IPv4 or IPv6 address as its bytes, for exact and range matches.
    struct IPAddress: Equatable {
        let bytes: [UInt8]

        init?(_ text: String) {
            var v4 = in_addr()
            var v6 = in6_addr()
            if inet_pton(AF_INET, text, &v4) == 1 {
                bytes = withUnsafeBytes(of: &v4) { Array($0) }
            } else if inet_pton(AF_INET6, text, &v6) == 1 {
                bytes = withUnsafeBytes(of: &v6) { Array($0) }
            } else {
                return nil
            }
        }

        /// Whether the first `prefix` bits equal those of `network` (of the same family).
        func isIn(_ network: IPAddress, prefix: Int) -> Bool {
            guard bytes.count == network.bytes.count, (0...bytes.count * 8).contains(prefix) else { return false }
            for bit in 0..<prefix where (bytes[bit / 8] ^ network.bytes[bit / 8]) & (0x80 >> UInt8(bit % 8)) != 0 { return false }
            return true
        }
    }

    /// `host:port` with the user, never the password, for messages.
    public var description: String { (user.map { $0 + ":***@" } ?? "") + host + ":" + String(port) }
}
