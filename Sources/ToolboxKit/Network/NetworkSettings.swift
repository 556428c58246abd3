import AsyncHTTPClient
import NIOCore
import NIOSSL

/// How the client reaches the server: timeouts, retries, whom to trust, which proxy.
public struct NetworkSettings: Sendable {
    /// Seconds for the whole of a request, body included, retries included (curl's `-m`).
    /// A download that reports progress is bounded by silence instead: no byte for this long.
    public var timeout: Double = 30
    /// Seconds to establish a connection (TCP and TLS), within `timeout`.
    public var connectTimeout: Double?
    public var retries: Int = 2
    public var trust: TrustStore = .resolve(cacert: nil)
    /// Accept any certificate (`-k`).
    public var insecure = false
    public var proxy: ProxyChoice?
    /// Reach an http:// server through the proxy's CONNECT tunnel too (curl's `-p`), rather
    /// than with absolute-form requests, which is what most proxies allow for plain HTTP.
    public var proxyTunnel = false

    public init(timeout: Double = 30, connectTimeout: Double? = nil, retries: Int = 2,
                trust: TrustStore = .resolve(cacert: nil), insecure: Bool = false, proxy: ProxyChoice? = nil,
                proxyTunnel: Bool = false) {
        self.proxyTunnel = proxyTunnel
        self.timeout = timeout
        self.connectTimeout = connectTimeout
        self.retries = retries
        self.trust = trust
        self.insecure = insecure
        self.proxy = proxy
    }
}

/// The HTTP client these settings make: its TLS, timeouts, proxy and connection pool.
extension NetworkSettings {
    var totalAmount: TimeAmount { .milliseconds(Int64(max(timeout, 0.001) * 1000)) }
    var connectAmount: TimeAmount { .milliseconds(Int64(max(min(connectTimeout ?? timeout, timeout), 0.001) * 1000)) }

    /// Whether certificates are checked against `trust` for `server` (https, or any proxy).
    func checksCertificates(for server: ServerURL) -> Bool { !insecure && (server.isHTTPS || proxy != nil) }

    func makeHTTPClient(for server: ServerURL) throws(ToolError) -> HTTPClient {
        var tls = TLSConfiguration.makeClientConfiguration()
        if insecure {
            tls.certificateVerification = .none
        } else if checksCertificates(for: server) {
            tls.trustRoots = try trust.trustRoots()
        }
        var configuration = HTTPClient.Configuration(
            tlsConfiguration: tls,
            redirectConfiguration: .disallow,  // followed by `APIClient.execute`, as curl -L does
            timeout: .init(connect: connectAmount, read: totalAmount))
        configuration.decompression = .disabled
        if let proxy {
            let authorization = proxy.user.map { HTTPClient.Authorization.basic(username: $0, password: proxy.password ?? "") }
            configuration.proxy = proxy.kind == .http
                ? .server(host: proxy.host, port: proxy.port, authorization: authorization)
                : .socksServer(host: proxy.host, port: proxy.port)
        }
        // Our RetryPolicy retries with backoff and counts against --retries; AsyncHTTPClient's
        // own retrying of failed connects would hold a refused connection until the timeout.
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 64
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    /// Everything `makeHTTPClient` reads, and nothing else: clients that agree on it share one
    /// (`HTTPClients`).
    func sharingKey(for server: ServerURL) -> String {
        let proxy = proxy.map { [$0.kind == .http ? "http" : "socks", $0.host, String($0.port), $0.user ?? "", $0.password ?? ""] }
        let setup = (proxy ?? ["direct"]) + [insecure ? "insecure" : "checked", checksCertificates(for: server) ? trust.files : "",
                                             String(connectAmount.nanoseconds), String(totalAmount.nanoseconds)]
        return setup.joined(separator: "\n")
    }
}
