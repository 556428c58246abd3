/// The one error type the tools throw. It knows its exit status and its one-line message;
/// `ToolMain` prints the message as `tool: message` and exits with the status.
public enum ToolError: Error, Sendable, Equatable {
    /// The server could not be reached at all (connection refused, DNS, reset).
    case unreachable(url: String, reason: String)
    /// The proxy could not be reached (connection refused, DNS, reset).
    case proxyUnreachable(proxy: String, reason: String)
    /// The proxy refused to relay a request to `url` with HTTP `status` (nil: the status of a
    /// refused CONNECT, which is not known). Never retried.
    case proxyRefused(proxy: String, status: Int?, url: String)
    /// No answer within the timeout.
    case timedOut(url: String, seconds: Double)
    /// A download with progress slower than `bytesPerSecond` for `seconds` (curl's --speed-limit).
    case tooSlow(url: String, bytesPerSecond: Int, seconds: Double)
    /// The server answered with an unexpected HTTP status (5xx after retries, or a 4xx the caller did not handle).
    case httpStatus(url: String, status: Int, message: String)
    /// The server refused the credentials (401/403).
    case credentialsRefused(url: String)
    /// A collection answered 404: the server URL is not the API's base.
    case notTheAPI(url: String, base: String)
    /// The server's certificate failed verification; `reason` says why, in words.
    case certificate(url: String, reason: String)
    /// The server's response could not be understood.
    case protocolViolation(url: String, detail: String)
    /// An id that does not exist.
    case notFound(what: String)
    /// An id that does not exist, with the whole message (to add what to do about it).
    case missing(String)
    /// Input data (a condition, a change, a file) is malformed or was rejected.
    case badData(String)
    /// A usage problem that ArgumentParser could not catch (for example a missing argument value).
    case usage(String)
    /// Local files: a cache, a store.
    case io(path: String, reason: String)
    /// Work is kept locally and should be retried later.
    case tryLater(String)
    /// The user pressed Ctrl-C.
    case interrupted
    /// Something that should not happen.
    case bug(String)

    public var exitStatus: ExitStatus {
        switch self {
        case .unreachable, .timedOut, .proxyUnreachable, .tooSlow: return .unavailable
        case .proxyRefused(_, let status, _): return status == 407 ? .noPermission : .unavailable
        case .httpStatus(_, let status, _): return status == 404 ? .noInput : .unavailable
        case .credentialsRefused: return .noPermission
        case .certificate: return .configuration
        case .notTheAPI: return .unavailable
        case .protocolViolation: return .protocolError
        case .notFound, .missing: return .noInput
        case .badData: return .dataError
        case .usage: return .usage
        case .io: return .ioError
        case .tryLater: return .tempFail
        case .interrupted: return .interrupted
        case .bug: return .software
        }
    }

    /// One line, no trailing period, meant to follow `tool: `: the reason first, then the
    /// place in parentheses, then what to do (issue 47), on every surface, so that a line cut
    /// at its end (a table cell, a status line at 60 columns) still says what went wrong.
    /// Local files keep the Unix form, `PATH: reason`, as cat, git and every tool say it.
    public var message: String { said(place: { $0 }, hints: true) }

    /// The same, with the URL's path (with its query) for the place: for a table column, a
    /// status line or a stored last error, where the server is known from around it; no
    /// advice on what to do (a screen has its own).
    public var brief: String { said(place: Self.place, hints: false) }

    private func said(place: (String) -> String, hints: Bool) -> String {
        let larger = hints ? "; try a larger --timeout" : ""
        switch self {
        case .unreachable(let url, let reason):
            let hint = hints && Self.isDefaultServer(url) ? "; is mockd running?" : ""
            return "\(reason) (\(place(url)))\(hint)"
        case .proxyUnreachable(let proxy, let reason):
            return "\(reason) (the proxy \(proxy))"
        case .proxyRefused(let proxy, let status, let url):
            if status == 407 {
                return "the proxy wants credentials, HTTP 407 (\(proxy)): put user:password@ in the proxy URL"
            }
            let answer = status.map { ", HTTP \($0)" } ?? ""
            return "the proxy refused to relay the request\(answer) (the proxy \(proxy), for \(place(url)))"
        case .timedOut(let url, let seconds):
            return "no answer within \(Self.format(seconds))s (\(place(url)))\(larger)"
        case .tooSlow(let url, let rate, let seconds):
            return "under \(rate) bytes a second for \(Self.format(seconds))s (\(place(url)))\(larger)"
        case .httpStatus(let url, let status, let message):
            let detail = message.isEmpty ? "" : ": \(message)"
            return "HTTP \(status)\(detail) (\(place(url)))"
        case .credentialsRefused(let url):
            return "credentials refused (\(place(url)))"
        case .notTheAPI(let url, let base):
            return "HTTP 404, \(base) is not the API's base URL (\(place(url)))" + (hints ? "; check --server or the tool's _SERVER variable" : "")
        case .certificate(let url, let reason):
            let hint = reason.contains("host name") ? "connect by a name the certificate lists, or use -k to skip the check"
                : reason.contains("expired") || reason.contains("not valid before") ? "its server must renew it; -k skips the check"
                : "give its CA with --cacert FILE (or SSL_CERT_FILE), or use -k to skip the check"
            return "untrusted certificate, \(reason) (\(Self.host(of: url)))" + (hints ? "; \(hint)" : "")
        case .protocolViolation(let url, let detail):
            return "unexpected response, \(detail) (\(place(url)))"
        case .notFound(let what):
            return "\(what) not found"
        case .badData(let text), .usage(let text), .tryLater(let text), .missing(let text):
            return text
        case .io(let path, let reason):
            return "\(path): \(reason)"
        case .interrupted:
            return "interrupted"
        case .bug(let text):
            return "internal error: \(text); please report it"
        }
    }

    /// A URL's path (with its query), or its host when it has none: where, in few words.
    static func place(_ url: String) -> String {
        guard let schemeEnd = url.schemeEnd else { return url }
        let rest = url[schemeEnd...]
        guard let slash = rest.firstIndex(of: "/"), rest[slash...].count > 1 else { return host(of: url) }
        return String(rest[slash...])
    }

    /// `host[:port]` of a URL, for messages about the host itself.
    static func host(of url: String) -> String {
        guard let schemeEnd = url.schemeEnd else { return url }
        var rest = url[schemeEnd...]
        if let slash = rest.firstIndex(of: "/") { rest = rest[..<slash] }
        if let at = rest.lastIndex(of: "@") { rest = rest[rest.index(after: at)...] }
        return String(rest)
    }

    /// The hint about mockd only makes sense for a server on this machine.
    /// The default server, where mockd listens when started without --port: only there is
    /// "is mockd running?" the likely answer.
    static func isDefaultServer(_ url: String) -> Bool {
        let host = host(of: url)
        return isLoopback(url) && host.hasSuffix(":8106")
    }

    static func isLoopback(_ url: String) -> Bool {
        var host = Substring(host(of: url))
        if host.hasPrefix("[::1]") { return true }
        if let colon = host.lastIndex(of: ":") { host = host[..<colon] }
        return host == "localhost" || (host.hasPrefix("127.") && host.allSatisfy { $0 == "." || $0.isASCII && $0.isNumber })
    }

    static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }
}
