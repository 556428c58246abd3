import AsyncHTTPClient
import NIOCore
import NIOHTTP1

/// Redirects as curl follows them with `-L`, on every path (direct, CONNECT, absolute-form
/// proxy): `Location` resolved against the URL of the request that got it; never from https
/// to http; each hop shown with `-v`; the server's credentials only for the server's origin;
/// POST becomes GET after a 301, 302 or 303, as curl and browsers do.
extension APIClient {
    /// Hops followed before giving up.
    static let maximumRedirects = 5

    /// Sends a request for `path` on the server and follows its redirects.
    func execute(_ method: HTTPMethod, _ path: String, headers: [(String, String)], body: [UInt8]?) async throws -> HTTPClientResponse {
        var url = server.requestURL(path)
        var method = method
        var body = body
        for hop in 0...Self.maximumRedirects {
            let response = try await executeOnce(method, url: url, headers: headers, body: body)
            let status = Int(response.status.code)
            guard [301, 302, 303, 307, 308].contains(status), let location = response.headers.first(name: "Location") else { return response }
            guard hop < Self.maximumRedirects else { throw HTTPClientError.redirectLimitReached }
            let next = try Self.redirectTarget(location, from: url)
            log("< \(status) \(response.status.reasonPhrase) → \(ServerURL.redactedIfCredentials(next))")
            if status == 303 && method != .HEAD || (status == 301 || status == 302) && method == .POST {
                method = .GET
                body = nil
            }
            url = next
            log("> \(method.rawValue) \(ServerURL.redactedIfCredentials(url))")
        }
        throw HTTPClientError.redirectLimitReached
    }

    /// The absolute URL a `Location` names, read against `current` (RFC 3986: a URL, `//host`,
    /// `/path` or a relative path; the fragment dropped). A scheme other than http(s), or https
    /// to http, is refused with one line naming both URLs.
    static func redirectTarget(_ location: String, from current: String) throws(ToolError) -> String {
        let location = String(location[..<(location.firstIndex(of: "#") ?? location.endIndex)]).trimmingSpaces()
        let currentScheme = String(current[..<(current.schemeEnd ?? current.startIndex)]).lowercased()
        let origin = current.schemeEnd.map { end in
            String(current[..<(current[end...].firstIndex { $0 == "/" || $0 == "?" } ?? current.endIndex)])
        } ?? current
        var target: String
        if location.schemeEnd != nil {
            target = location
        } else if location.hasPrefix("//") {
            target = String(currentScheme.dropLast(2)) + location
        } else if location.hasPrefix("/") {
            target = origin + location
        } else {
            let path = String(current[origin.endIndex...])
            let withoutQuery = path[..<(path.firstIndex(of: "?") ?? path.endIndex)]
            let folder = withoutQuery[..<(withoutQuery.lastIndex(of: "/").map { withoutQuery.index(after: $0) } ?? withoutQuery.startIndex)]
            target = origin + (folder.isEmpty ? "/" : String(folder)) + location
        }
        let scheme = String(target[..<(target.schemeEnd ?? target.startIndex)]).lowercased()
        let shown = "to " + Terminal.quote(ServerURL.redactedIfCredentials(target), limit: 200)
        guard scheme == "http://" || scheme == "https://" else {
            throw .protocolViolation(url: ServerURL.redactedIfCredentials(current), detail: "a redirect \(shown), which is neither http nor https: not followed")
        }
        if currentScheme == "https://" && scheme == "http://" {
            throw .protocolViolation(url: ServerURL.redactedIfCredentials(current), detail: "a redirect \(shown), from https to plain http: not followed")
        }
        return target
    }

    /// The request for the absolute `url`. The server URL's credentials go as HTTP Basic,
    /// never in the URL, and only to the server's own origin (scheme, host and port): a
    /// redirect elsewhere does not carry them, as curl does without --location-trusted.
    func makeRequest(_ method: HTTPMethod, url: String, headers: [(String, String)], body: [UInt8]?) -> HTTPClientRequest {
        var request = HTTPClientRequest(url: url)
        request.method = method
        request.headers.add(name: "User-Agent", value: "toolbox/\(ToolboxVersion.current)")
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        let sameOrigin = url.lowercased() == server.base.lowercased() || url.lowercased().hasPrefix(server.base.lowercased() + "/")
            || url.lowercased().hasPrefix(server.base.lowercased() + "?")
        if sameOrigin, let authorization = server.authorization, !headers.contains(where: { $0.0.lowercased() == "authorization" }) {
            request.headers.add(name: "Authorization", value: authorization)
        }
        if let body { request.body = .bytes(ByteBuffer(bytes: body)) }
        return request
    }
}
