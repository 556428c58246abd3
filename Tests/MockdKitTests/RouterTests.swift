import Hummingbird
import HummingbirdTesting
import Testing
@testable import MockdKit

/// A stand-in API: one route behind the fault middleware, so the middleware is tested on its own.
struct EchoAPI: MockAPI {
    let name = "echo"
    let defaultFaults: FaultProfile
    func register(on router: Router<BasicRequestContext>, faults: FaultMiddleware<BasicRequestContext>) {
        router.group("/echo").add(middleware: faults).get { _, _ in "echo" }
    }
}

@Suite struct RouterTests {
    func server(failureRate: Double? = nil, defaults: FaultProfile = .none) -> MockServer {
        var configuration = MockdConfiguration()
        configuration.quiet = true
        configuration.failureRate = failureRate
        return MockServer(configuration: configuration, apis: [EchoAPI(defaultFaults: defaults)])
    }

    @Test func healthIsOKAndNeverFaulted() async throws {
        let app = Application(router: server(failureRate: 1).makeRouter())
        try await app.test(.router) { client in
            for _ in 0..<20 {
                try await client.execute(uri: "/health", method: .get) { response in
                    #expect(response.status == .ok)
                    #expect(String(buffer: response.body) == #"{"status":"ok"}"#)
                }
            }
        }
    }

    @Test func unknownRouteIs404WithJSON() async throws {
        let app = Application(router: server().makeRouter())
        try await app.test(.router) { client in
            try await client.execute(uri: "/nope", method: .get) { response in
                #expect(response.status == .notFound)
                #expect(response.headers[.contentType] == "application/json")
                #expect(String(buffer: response.body) == #"{"error":{"message":"no route for GET /nope"}}"#)
            }
        }
    }

    @Test func failureRateOneAnswers500() async throws {
        let app = Application(router: server(failureRate: 1).makeRouter())
        try await app.test(.router) { client in
            try await client.execute(uri: "/echo", method: .get) { response in
                #expect(response.status == .internalServerError)
                #expect(String(buffer: response.body) == "Internal Server Error")
            }
        }
    }

    @Test func anAPIsOwnDefaultsApplyWithoutFlags() async throws {
        let app = Application(router: server(defaults: FaultProfile(failureRate: 1)).makeRouter())
        try await app.test(.router) { client in
            try await client.execute(uri: "/echo", method: .get) { response in
                #expect(response.status == .internalServerError)
            }
        }
        let overridden = Application(router: server(failureRate: 0, defaults: FaultProfile(failureRate: 1)).makeRouter())
        try await overridden.test(.router) { client in
            try await client.execute(uri: "/echo", method: .get) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body) == "echo")
            }
        }
    }
}

/// mockd gzips a feed when the client's Accept-Encoding allows it (RFC 9110 12.5.3): gzip or
/// `*` with a weight above 0, whatever the blanks and case.
@Suite struct AcceptEncodingTests {
    @Test(arguments: [("gzip", true), ("GZIP", true), ("deflate, gzip;q=0.5", true), ("x-gzip", true), ("*", true),
                      (" br ,\tgzip ; q=1", true), ("gzip;q=0", false), ("gzip; q=0.0", false), ("gzip;q=0.000", false),
                      ("identity", false), ("br, deflate", false), ("gzipped", false), ("", false), ("gzip;q=nonsense", false)])
    func gzipIsAcceptedWhenAllowed(header: String, accepted: Bool) {
        #expect(BlogAPI.acceptsGzip(header) == accepted, "\(header)")
    }
}
