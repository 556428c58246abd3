import AsyncHTTPClient
import NIOHTTP1

/// Sending one request, through a proxy the way curl does: plain http:// in absolute form by
/// `AbsoluteFormProxy`, everything else through AsyncHTTPClient (directly or through CONNECT).
extension APIClient {
    /// Sends one request: through AsyncHTTPClient (directly, or tunnelled through a proxy), or
    /// in absolute form through an HTTP proxy for a plain http:// server. That path follows
    /// redirects itself, as AsyncHTTPClient does, within the server's origin.
    func execute(_ method: HTTPMethod, _ path: String, headers: [(String, String)], body: [UInt8]?) async throws -> HTTPClientResponse {
        // An absolute https:// URL (not the server's own scheme) still goes through CONNECT.
        guard let absoluteFormProxy, !server.requestURL(path).lowercased().utf8.starts(with: "https://".utf8) else {
            return try await http.execute(makeRequest(method, path, headers: headers, body: body), deadline: .distantFuture)
        }
        var path = path
        var method = method
        var body = body
        for _ in 0...5 {
            var request = makeRequest(method, path, headers: headers, body: nil)
            let url = request.url
            request.headers.remove(name: "Host")
            let response = try await absoluteFormProxy.execute(method, url: url, headers: request.headers, body: body)
            guard [301, 302, 303, 307, 308].contains(response.status.code),
                  let location = response.headers.first(name: "Location"),
                  let next = Self.sameOriginPath(location, base: server.base)
            else {
                return try Self.refusedByProxy(response, proxy: absoluteFormProxy.proxy, url: server.url(path))
            }
            if response.status.code == 303 || (response.status.code != 307 && response.status.code != 308 && method == .POST) {
                method = .GET
                body = nil
            }
            path = next
        }
        throw HTTPClientError.redirectLimitReached
    }

    /// The path of a redirect's `Location` when it stays on `base` (a path, or a URL starting
    /// with `base`); nil for another origin, which this path does not follow.
    static func sameOriginPath(_ location: String, base: String) -> String? {
        if location.hasPrefix("/") && !location.hasPrefix("//") { return location }
        if location.lowercased().hasPrefix(base.lowercased() + "/") { return String(location.dropFirst(base.count)) }
        return nil
    }

    /// A 407 always comes from the proxy; so does a 5xx a proxy marks as its own (squid's
    /// `X-Squid-Error`, tinyproxy's `Server` header): named as the proxy's, never retried.
    static func refusedByProxy(_ response: HTTPClientResponse, proxy: ProxyChoice, url: String) throws -> HTTPClientResponse {
        let status = Int(response.status.code)
        let server = response.headers.first(name: "Server")?.lowercased() ?? ""
        let marked = response.headers.contains(name: "X-Squid-Error") || server.hasPrefix("tinyproxy") || server.hasPrefix("squid")
        if status == 407 || (marked && (status == 403 || status >= 500)) {
            throw ToolError.proxyRefused(proxy: proxy.description, status: status, url: url)
        }
        return response
    }
}
