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

    /// Sends a request for `path` on the server and follows its redirects. A write (any
    /// method but GET and HEAD) follows none that leaves the server's origin: its body was
    /// meant for the configured server alone. A failure on a hop names that hop's URL.
    /// `arrived` hears the final URL after any redirect, and whether every hop was permanent
    /// (301, 308): where the body came from (the base of its relative links) and, when
    /// permanent, where the resource now lives, for a caller that keeps URLs (a feed
    /// reader's subscriptions).
    func execute(_ method: HTTPMethod, _ path: String, headers: [(String, String)], body: [UInt8]?,
                 arrived: ((_ url: String, _ permanently: Bool) -> Void)? = nil) async throws -> HTTPClientResponse {
        var url = server.requestURL(path)
        var permanent = true
        let write = ![.GET, .HEAD].contains(method)
        var method = method
        var body = body
        for hop in 0...Self.maximumRedirects {
            let response: HTTPClientResponse
            do {
                response = try await executeOnce(method, url: url, headers: headers, body: body)
            } catch where hop > 0 {
                throw FailedHop(url: ServerURL.redactedIfCredentials(url), underlying: error)
            }
            let status = Int(response.status.code)
            guard [301, 302, 303, 307, 308].contains(status), let location = response.headers.first(name: "Location") else {
                if hop > 0 { arrived?(url, permanent) }
                return response
            }
            permanent = permanent && (status == 301 || status == 308)
            guard hop < Self.maximumRedirects else { throw HTTPClientError.redirectLimitReached }
            let next = try Self.redirectTarget(location, from: url)
            log("< \(status) \(response.status.reasonPhrase) → \(ServerURL.redactedIfCredentials(next))")
            if write, let from = URLReference(server.requestURL(path)), let to = URLReference(next), !to.sameOrigin(as: from) {
                throw ToolError.protocolViolation(
                    url: ServerURL.redactedIfCredentials(url),
                    detail: "a redirect of a \(method.rawValue) to \(Terminal.quote(ServerURL.redactedIfCredentials(next), limit: 200)), another origin: not followed")
            }
            if status == 303 && method != .HEAD || (status == 301 || status == 302) && method == .POST {
                method = .GET
                body = nil
            }
            url = next
            log("> \(method.rawValue) \(ServerURL.redactedIfCredentials(url))")
        }
        throw HTTPClientError.redirectLimitReached
    }

    /// A request that failed after a redirect: said with the URL that failed, not the first.
    struct FailedHop: Error {
        let url: String
        let underlying: any Error
    }

    /// The absolute URL a `Location` names, read against `current` as RFC 3986 reads a
    /// reference (dot segments removed; the empty reference is `current` itself; the fragment
    /// and any credentials dropped). A scheme other than http(s), or https to http, is refused
    /// with one line naming both URLs.
    static func redirectTarget(_ location: String, from current: String) throws(ToolError) -> String {
        let location = location.trimmingSpaces()
        let shown = "to " + Terminal.quote(ServerURL.redactedIfCredentials(location), limit: 200)
        guard let base = URLReference(current), let target = base.resolving(location) else {
            throw .protocolViolation(url: ServerURL.redactedIfCredentials(current), detail: "a redirect \(shown), which is neither http nor https: not followed")
        }
        if base.scheme == "https" && target.scheme == "http" {
            throw .protocolViolation(url: ServerURL.redactedIfCredentials(current),
                                     detail: "a redirect to \(Terminal.quote(target.absolute, limit: 200)), from https to plain http: not followed")
        }
        return target.absolute
    }

    /// The request for the absolute `url`. Credentials go only as the client's `Credential`
    /// decides, for this URL (after every redirect); an `Authorization` header given by a
    /// caller is dropped, so no path can send one by hand.
    func makeRequest(_ method: HTTPMethod, url: String, headers: [(String, String)], body: [UInt8]?) -> HTTPClientRequest {
        var request = HTTPClientRequest(url: url)
        request.method = method
        request.headers.add(name: "User-Agent", value: "toolbox/\(ToolboxVersion.current)")
        for (name, value) in headers where name.lowercased() != "authorization" { request.headers.add(name: name, value: value) }
        if let authorization = credential?.authorization(for: url) {
            request.headers.add(name: "Authorization", value: authorization)
        }
        if let body { request.body = .bytes(ByteBuffer(bytes: body)) }
        return request
    }
}
