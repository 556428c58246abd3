import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import Logging
import NIOCore
import NIOSSL
import ToolboxKit

/// mockd: every API of the toolbox on one Hummingbird server.
public struct MockServer: Sendable {
    public let configuration: MockdConfiguration
    public let apis: [any MockAPI]
    public let injector: FaultInjector

    public init(configuration: MockdConfiguration, apis: [any MockAPI]) {
        self.configuration = configuration
        self.apis = apis
        self.injector = FaultInjector(seed: configuration.seed)
    }

    /// The router: logging, JSON 404s, `/health` (never faulted), then each API behind its faults.
    public func makeRouter() -> Router<BasicRequestContext> {
        let router = Router()
        if !configuration.quiet { router.add(middleware: RequestLogMiddleware()) }
        router.add(middleware: JSONNotFoundMiddleware())
        router.get("/health") { _, _ in
            Response.json(Array("{\"status\":\"ok\"}".utf8))
        }
        for api in apis {
            let faults = FaultMiddleware<BasicRequestContext>(
                profile: configuration.profile(api.defaultFaults), injector: injector)
            api.register(on: router, faults: faults)
        }
        return router
    }

    public func makeApplication(onListening: @escaping @Sendable (String) -> Void = MockServer.announce)
        throws(ToolError) -> some ApplicationProtocol
    {
        var logger = Logger(label: "mockd", factory: { label in StreamLogHandler.standardError(label: label) })
        logger.logLevel = configuration.quiet ? Logger.Level.critical : Logger.Level.warning
        let host = configuration.host
        let tls = try tlsConfiguration()
        let scheme = tls == nil ? "http" : "https"
        let server: HTTPServerBuilder
        do { server = try tls.map { try .tls(.http1(), tlsConfiguration: $0) } ?? .http1() } catch {
            throw .usage("cannot use the TLS certificate and key: they do not fit together")
        }
        return Application(
            router: makeRouter(),
            server: server,
            configuration: .init(address: .hostname(host, port: configuration.port), serverName: "mockd"),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? 0
                let shown = host.contains(":") ? "[\(host)]" : host
                onListening("\(scheme)://\(shown):\(port)")
            },
            logger: logger)
    }

    /// The server's TLS settings from `--tls-cert` and `--tls-key`, or nil for plain HTTP.
    func tlsConfiguration() throws(ToolError) -> TLSConfiguration? {
        guard let certificate = configuration.tlsCertificate, let key = configuration.tlsKey else { return nil }
        let chain: [NIOSSLCertificate]
        do { chain = try NIOSSLCertificate.fromPEMFile(certificate) } catch {
            throw .usage("cannot read a PEM certificate from \(certificate)")
        }
        guard !chain.isEmpty else { throw .usage("no PEM certificate in \(certificate)") }
        let privateKey: NIOSSLPrivateKey
        do { privateKey = try NIOSSLPrivateKey(file: key, format: .pem) } catch {
            throw .usage("cannot read a PEM private key from \(key)")
        }
        return TLSConfiguration.makeServerConfiguration(certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(privateKey))
    }

    /// Serves until SIGINT or SIGTERM, then shuts down gracefully.
    public func run() async throws {
        let application = try makeApplication()
        try await application.runService(gracefulShutdownSignals: [.sigterm, .sigint])
    }

    /// The first stdout line, written unbuffered so a waiting script sees it at once.
    @Sendable public static func announce(_ url: String) {
        StandardOutput.print("mockd: listening on \(url)\n")
    }
}
