import AsyncHTTPClient
import NIOHTTP1

/// Sending one request, through a proxy the way curl does: plain http:// in absolute form by
/// `AbsoluteFormProxy`, everything else through AsyncHTTPClient (directly or through CONNECT).
extension APIClient {
    /// Sends one request to the absolute `url`, without following a redirect.
    func executeOnce(_ method: HTTPMethod, url: String, headers: [(String, String)], body: [UInt8]?) async throws -> HTTPClientResponse {
        // An https:// URL goes through CONNECT (or directly); only plain http:// in absolute form.
        guard let absoluteFormProxy, !url.lowercased().utf8.starts(with: "https://".utf8) else {
            return try await http.execute(makeRequest(method, url: url, headers: headers, body: body), deadline: .distantFuture)
        }
        var request = makeRequest(method, url: url, headers: headers, body: nil)
        request.headers.remove(name: "Host")
        let response = try await absoluteFormProxy.execute(method, url: url, headers: request.headers, body: body)
        return try Self.refusedByProxy(response, proxy: absoluteFormProxy.proxy, url: ServerURL.redactedIfCredentials(url))
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
