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
