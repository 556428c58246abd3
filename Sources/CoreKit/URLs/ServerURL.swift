/// Which server a tool talks to: `--server URL`, else the tool's own variable
/// (`CONDTEST_SERVER`, …), else `TOOLBOX_SERVER`, else mockd's default address.
public struct ServerURL: Sendable, Equatable, CustomStringConvertible {
    public static let defaultURL = "http://127.0.0.1:8106"

    /// Scheme, host and port, with no trailing slash and no credentials: `http://127.0.0.1:8106`.
    public let base: String
    /// Credentials written in the URL (`https://alice:secret@host`), percent-decoded, sent as
    /// HTTP Basic as curl does, and never printed.
    public let user: String?
    public let password: String?
    /// The query, without its `?`, where the tool reads a document at the URL itself (blogctl's
    /// feeds: `https://example.org/?feed=rss2`); nil otherwise. API paths never carry it.
    public let query: String?
    /// The URL itself, as a document is asked for at it: the trailing slash kept (a feed at
    /// `/feed/` answers `/feed` with a redirect) and the query, without credentials.
    public let resource: String

    /// `allowingQuery`: a query is kept (`query`, `resource`) rather than refused; for a tool
    /// whose server may be a document (a feed), not an API.
    public init(_ text: String, allowingQuery: Bool = false) throws(ToolError) {
        let value = text.trimmingSpaces()
        // By bytes: `http://` followed by a combining mark is a URL whose host is wrong, not one
        // without a scheme (a Character comparison sees `/` and the mark as one).
        let lower = value.asciiLowercased.utf8
        guard lower.starts(with: "http://".utf8) || lower.starts(with: "https://".utf8) else {
            throw .usage("invalid server URL \(Terminal.quote(Self.redacted(text))): it must start with http:// or https://")
        }
        let schemeEnd = value.schemeEnd!
        let (userInfo, afterCredentials) = URLUserInfo.split(value[schemeEnd...])
        user = userInfo?.user
        password = userInfo?.password
        var path = afterCredentials
        var query: String?
        if allowingQuery, let mark = path.utf8.firstIndex(of: UInt8(ascii: "?")) {
            let rest = path[path.utf8.index(after: mark)...]
            query = rest.isEmpty ? nil : String(rest)
            path = path[..<mark]
        }
        self.query = query
        let given = path
        while path.utf8.last == UInt8(ascii: "/") { path = path.dropLast() }
        guard let first = path.utf8.first, first != UInt8(ascii: "/"), first != UInt8(ascii: ":"),
              !path.utf8.contains(where: { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }),
              !(query ?? "").utf8.contains(where: { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "#") })
        else {
            throw .usage("invalid server URL \(Terminal.quote(Self.redacted(text))): it needs a host, and no "
                + (allowingQuery ? "spaces or fragment" : "query or fragment"))
        }
        // A port that is not a number is most often a password holding `/` (`alice:pa/ss@host`),
        // which must be written %2F: refused here, redacted, before any message could show it.
        let hostPart = path[..<(path.utf8.firstIndex(of: UInt8(ascii: "/")) ?? path.endIndex)]
        let afterBracket = hostPart.utf8.lastIndex(of: UInt8(ascii: "]")).map { hostPart[$0...] } ?? hostPart
        if let colon = afterBracket.utf8.lastIndex(of: UInt8(ascii: ":")),
           !afterBracket[afterBracket.utf8.index(after: colon)...].utf8.allSatisfy({ (0x30...0x39).contains($0) }) {
            throw .usage("invalid server URL \(Terminal.quote(Self.redacted(text))): the port is not a number (write / and @ in a password as %2F and %40)")
        }
        let scheme = String(value[..<schemeEnd])
        base = scheme + path
        resource = scheme + given + (query.map { "?" + $0 } ?? "")
    }

    /// `text` with the password of a URL (or of `user:password@host`, without a scheme)
    /// replaced by `***`, for messages. Everything before the last `@` counts as credentials,
    /// even past a `/`, `?` or `#` (a password may hold them, unescaped): a message may hide
    /// too much of a URL, never a password. The split is by bytes (an `@` followed by a
    /// combining mark is one Character).
    public static func redacted(_ text: String) -> String {
        let start = text.schemeEnd ?? text.startIndex
        let rest = text[start...]
        guard let at = rest.utf8.lastIndex(of: UInt8(ascii: "@")) else { return text }
        let userinfo = rest[..<at]
        let user = userinfo.utf8.firstIndex(where: { $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: "/") }).map { userinfo[..<$0] } ?? userinfo
        return String(text[..<start]) + user + ":***" + rest[at...]
    }

    /// `text` redacted when it holds an `@` (a URL from a server may carry credentials).
    public static func redactedIfCredentials(_ text: String) -> String {
        text.utf8.contains(UInt8(ascii: "@")) ? redacted(text) : text
    }

    /// Resolves the server from the flag, the environment and the default, in that order.
    public static func resolve(flag: String?, toolVariable: String,
                               environment: [String: String] = Environment.current,
                               configured: String? = nil, allowingQuery: Bool = false) throws(ToolError) -> ServerURL {
        if let flag { return try ServerURL(flag, allowingQuery: allowingQuery) }
        for name in [toolVariable, "TOOLBOX_SERVER"] {
            if let value = environment[name], !value.isEmpty { return try ServerURL(value, allowingQuery: allowingQuery) }
        }
        // config.yml's, the tool's mapping over the shared one, after every variable.
        return try ServerURL(configured ?? defaultURL, allowingQuery: allowingQuery)
    }

    /// The absolute URL of an API path (`/conditions/7`) or of an absolute URL given by the
    /// server, as messages show it: credentials as `user:***@`.
    public func url(_ path: String) -> String {
        let full = requestURL(path)
        // `http://alice:12/pw@host` is host alice, port 12, as curl reads it; but it was most
        // likely meant as a password: an `@` anywhere is hidden as credentials would be.
        guard let user, full.hasPrefix(base) else { return full.utf8.contains(UInt8(ascii: "@")) ? Self.redacted(full) : full }
        let schemeEnd = base.schemeEnd!
        return String(base[..<schemeEnd]) + user + ":***@" + full[schemeEnd...]
    }

    /// The URL to send a request to, and to resolve a document's links against: no credentials
    /// (they travel in the Authorization header).
    public func requestURL(_ path: String) -> String {
        if path.utf8.starts(with: "http://".utf8) || path.utf8.starts(with: "https://".utf8) { return path }
        return path.utf8.first == UInt8(ascii: "/") ? base + path : base + "/" + path
    }

    /// The URL as messages show it (credentials as `user:***@`), with its query if kept.
    public var description: String { String(url("/").dropLast()) + (query.map { "?" + $0 } ?? "") }

    /// A folder name for what is kept per server (blogctl's cache): the host and port, made
    /// safe for a file name, and a hash of the whole URL (scheme, path, user name), so two
    /// servers on one host never share a folder: `127.0.0.1-8106-5d1e8a03c2b4f971`.
    public var folderName: String {
        // The host's first 64 code points, each ASCII letter, digit, `.` or `-` kept, any other `_`.
        var kept: [UInt8] = []
        for scalar in self.host.unicodeScalars.prefix(64) {
            let value = scalar.value
            let plain = (0x61...0x7A).contains(value) || (0x41...0x5A).contains(value) || (0x30...0x39).contains(value)
                || value == 0x2E || value == 0x2D
            kept.append(plain ? UInt8(value) : UInt8(ascii: "_"))
        }
        let host = String(decoding: kept, as: UTF8.self)
        return (host.isEmpty ? "_" : host) + "-\(port)-" + FNV1a.hash(description.utf8).hex
    }

    /// Whether the server speaks TLS, read by bytes (a Character comparison fails when the host
    /// starts with a combining mark, which fuses with the scheme's `/`).
    public var isHTTPS: Bool { base.asciiLowercased.utf8.starts(with: "https://".utf8) }

    /// The port: the URL's, else 443 for https and 80 for http.
    public var port: Int {
        // By bytes: a `/`, `]` or `:` followed by a combining mark is one Character.
        var rest = Substring(base[base.schemeEnd!...])
        if let slash = rest.utf8.firstIndex(of: UInt8(ascii: "/")) { rest = rest[..<slash] }
        if rest.utf8.first == UInt8(ascii: "["), let close = rest.utf8.firstIndex(of: UInt8(ascii: "]")) { rest = rest[rest.utf8.index(after: close)...] }
        if let colon = rest.utf8.lastIndex(of: UInt8(ascii: ":")), let number = Int(rest[rest.utf8.index(after: colon)...]) { return number }
        return isHTTPS ? 443 : 80
    }

    /// The host name, as ~/.netrc names machines: `127.0.0.1`, `api.example.com`.
    public var host: String {
        // By bytes, as `port`.
        var rest = Substring(base[base.schemeEnd!...])
        if let slash = rest.utf8.firstIndex(of: UInt8(ascii: "/")) { rest = rest[..<slash] }
        if let at = rest.utf8.lastIndex(of: UInt8(ascii: "@")) { rest = rest[rest.utf8.index(after: at)...] }
        if rest.utf8.first == UInt8(ascii: "["), let close = rest.utf8.firstIndex(of: UInt8(ascii: "]")) {
            return String(rest[rest.utf8.index(after: rest.startIndex)..<close])
        }
        if let colon = rest.utf8.lastIndex(of: UInt8(ascii: ":")) { rest = rest[..<colon] }
        return String(rest)
    }

}

extension StringProtocol {
    /// Where what follows `://` starts, found by bytes: `/` followed by a combining mark is one
    /// Character, and a Character search would miss it.
    public var schemeEnd: String.Index? {
        // A scheme is a letter, then letters, digits, `+`, `-` or `.`, up to the first colon
        // (RFC 3986): a `://` further on is in a password or a path, never a scheme.
        let bytes = utf8
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), let first = bytes.first,
              (0x61...0x7A).contains(first | 0x20),
              bytes[..<colon].allSatisfy({ (0x61...0x7A).contains($0 | 0x20) || (0x30...0x39).contains($0) || $0 == 0x2B || $0 == 0x2D || $0 == 0x2E }),
              bytes[colon...].dropFirst().starts(with: "//".utf8)
        else { return nil }
        return bytes.index(colon, offsetBy: 3)
    }
}

extension String {
    /// The string without leading and trailing white space.
    public func trimmingSpaces() -> String {
        // Printable ASCII, not a space, at both ends: nothing to trim, known from two bytes
        // (an image's alt text, a thousand a paragraph), no Character made.
        if let first = utf8.first, let last = utf8.last, (0x21...0x7E).contains(first), (0x21...0x7E).contains(last) { return self }
        var view = Substring(self)
        while let first = view.first, first.isWhitespace { view.removeFirst() }
        while let last = view.last, last.isWhitespace { view.removeLast() }
        return String(view)
    }
}
