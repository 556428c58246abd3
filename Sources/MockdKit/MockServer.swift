import Hummingbird
import Logging
import NIOCore
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
        -> some ApplicationProtocol
    {
        var logger = Logger(label: "mockd", factory: { label in StreamLogHandler.standardError(label: label) })
        logger.logLevel = configuration.quiet ? Logger.Level.critical : Logger.Level.warning
        let host = configuration.host
        return Application(
            router: makeRouter(),
            configuration: .init(address: .hostname(host, port: configuration.port), serverName: "mockd"),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? 0
                let shown = host.contains(":") ? "[\(host)]" : host
                onListening("http://\(shown):\(port)")
            },
            logger: logger)
    }

    /// Serves until SIGINT or SIGTERM, then shuts down gracefully.
    public func run() async throws {
        try await makeApplication().runService(gracefulShutdownSignals: [.sigterm, .sigint])
    }

    /// The first stdout line, written unbuffered so a waiting script sees it at once.
    @Sendable public static func announce(_ url: String) {
        StandardOutput.print("mockd: listening on \(url)\n")
    }
}
