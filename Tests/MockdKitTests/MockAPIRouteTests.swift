import FoundationEssentials
import Hummingbird
import HummingbirdTesting
import Testing
import ToolboxKit
@testable import MockdKit

/// The four mock APIs as routes, through HummingbirdTesting (no socket): status, content
/// type and body of each route, the original servers' delays and faults as defaults, and the
/// same faults for the same seed. Delays are set to 0 here: nothing waits.
@Suite struct MockAPIRouteTests {
    static let dataDirectory = String(#filePath[..<#filePath.range(of: "/Tests/")!.lowerBound]) + "/data"

    static func application(failureRate: Double = 0, seed: UInt64 = 1, codes: [String] = []) throws -> some ApplicationProtocol {
        var configuration = MockdConfiguration()
        configuration.dataDirectory = dataDirectory
        configuration.quiet = true
        configuration.latency = LatencyRange(0, 0)
        configuration.failureRate = failureRate
        configuration.seed = seed
        configuration.massiveSize = 0
        configuration.passcodeCodes = codes
        let server = MockServer(configuration: configuration, apis: try MockAPIs.load(configuration))
        return Application(router: server.makeRouter())
    }

    @Test func theOriginalServersDelaysAndFaultsAreEachAPIsDefaults() throws {
        #expect(try ConditionsAPI(directory: Self.dataDirectory + "/conditions").defaultFaults == FaultProfile.none)
        #expect(try DevicesAPI(file: Self.dataDirectory + "/devices/devices.json").defaultFaults
                == FaultProfile(latency: LatencyRange(1000, 3000), failureRate: 0.1))
        #expect(PasscodeAPI().defaultFaults == FaultProfile(latency: LatencyRange(0, 3000), failureRate: 0))
        let blog = try BlogAPI(directory: Self.dataDirectory + "/blog", massiveSize: 0, massiveRate: 1, generatedPosts: 0)
        #expect(blog.defaultFaults == FaultProfile(latency: LatencyRange(100, 100), failureRate: 0))
    }

    @Test func conditions() async throws {
        try await Self.application().test(.router) { client in
            try await client.execute(uri: "/conditions", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "application/json")
                #expect(String(buffer: response.body).contains(#""_id":"5b8f1c3e9d1a4c0012a3b001""#))
            }
            try await client.execute(uri: "/conditions/5b8f1c3e9d1a4c0012a3b001", method: .get) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body).contains(#""Domain is rollout.io""#))
            }
            try await client.execute(uri: "/conditions/nope", method: .get) { response in
                #expect(response.status == .notFound)
                #expect(response.headers[.contentType] == "application/json")
            }
        }
    }

    @Test func blog() async throws {
        try await Self.application().test(.router) { client in
            let etag = try await client.execute(uri: "/post-metadata", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "application/json")
                return try #require(response.headers[.eTag])
            }
            try await client.execute(uri: "/post-metadata", method: .get, headers: [.ifNoneMatch: etag]) { response in
                #expect(response.status == .notModified)
                #expect(response.body.readableBytes == 0)
            }
            try await client.execute(uri: "/post-metadata/2", method: .get) { response in
                #expect(response.status == .ok)
            }
            let length = try await client.execute(uri: "/post/2", method: .get) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body).contains(#""body""#))
                return response.body.readableBytes
            }
            try await client.execute(uri: "/post/2", method: .head) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentLength] == String(length))
                #expect(response.body.readableBytes == 0)
            }
            try await client.execute(uri: "/post/nope", method: .get) { response in
                #expect(response.status == .notFound)
            }
            try await client.execute(uri: "/images/authors/ada.jpg", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "image/jpeg")
                #expect(Array(response.body.readableBytesView.prefix(2)) == [0xFF, 0xD8])
            }
        }
    }

    @Test func devices() async throws {
        try await Self.application().test(.router) { client in
            try await client.execute(uri: "/devices", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "text/json")
            }
            let patch = ByteBuffer(string: #"{"installationDate":"2024-01-02T03:04:05Z"}"#)
            try await client.execute(uri: "/devices/CWM-0012-62", method: .patch, body: patch) { response in
                #expect(response.status == .ok)
            }
            try await client.execute(uri: "/devices", method: .get) { response in
                let devices = try JSONCoding.decode([ServerDeviceForTest].self, from: Data(buffer: response.body))
                #expect(devices.first { $0.id == "CWM-0012-62" }?.installationDate == "2024-01-02T03:04:05Z")
            }
            for (uri, body, problem) in [
                ("/devices/CWM-0012-62", #"{"colour":"red"}"#, "unknown field"),
                ("/devices/CWM-0012-62", #"{"installationDate":5}"#, "installationDate"),
                ("/devices/NOPE", #"{"installationDate":null}"#, "unknown device"),
                ("/devices/CWM-0012-62", "[", "JSON object"),
            ] {
                try await client.execute(uri: uri, method: .patch, body: ByteBuffer(string: body)) { response in
                    #expect(response.status == .badRequest, "\(body)")
                    #expect(String(buffer: response.body).contains(problem), "\(body)")
                }
            }
        }
    }

    @Test func passcode() async throws {
        let login = "Basic " + Base64.encode(Array("Runloop:Run!@0p".utf8))
        try await Self.application(codes: ["4321"]).test(.router) { client in
            try await client.execute(uri: "/getPasscodeInternals", method: .post, headers: [.authorization: login]) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "text/event-stream")
                let text = String(buffer: response.body)
                #expect(text.contains("event: code\ndata: {\"code\":\"4321\"}\n\n"))
                #expect(text.contains("event: setup\ndata: {\"setup\":["))
            }
            try await client.execute(uri: "/getPasscodeInternals", method: .post, headers: [.authorization: "Basic eDp5"]) { response in
                #expect(response.status == .unauthorized)
                #expect(response.headers[.wwwAuthenticate] == "Basic realm=\"passcode\"")
            }
            try await client.execute(uri: "/getPasscodeInternals", method: .post) { response in
                #expect(response.status == .badRequest)
            }
        }
    }

    /// --devices-drift: each GET changes a share of the dates, the same ones for the same seed.
    @Test func devicesDriftFollowsTheSeed() async throws {
        func lists(seed: UInt64) async throws -> [String] {
            var configuration = MockdConfiguration()
            configuration.dataDirectory = Self.dataDirectory
            configuration.quiet = true
            configuration.latency = LatencyRange(0, 0)
            configuration.failureRate = 0
            configuration.seed = seed
            configuration.massiveSize = 0
            configuration.devicesDrift = 0.5
            let server = MockServer(configuration: configuration, apis: try MockAPIs.load(configuration))
            return try await Application(router: server.makeRouter()).test(.router) { client in
                var lists: [String] = []
                for _ in 0..<3 {
                    lists.append(try await client.execute(uri: "/devices", method: .get) { String(buffer: $0.body) })
                }
                return lists
            }
        }
        let first = try await lists(seed: 4)
        #expect(Set(first).count == 3, "each GET changes something")
        #expect(try await lists(seed: 4) == first)
        #expect(try await lists(seed: 5) != first)
    }

    /// The same seed fails the same requests; another seed, others.
    @Test func faultsFollowTheSeed() async throws {
        func statuses(seed: UInt64) async throws -> [UInt] {
            try await Self.application(failureRate: 0.5, seed: seed).test(.router) { client in
                var statuses: [UInt] = []
                for _ in 0..<40 {
                    statuses.append(try await client.execute(uri: "/conditions", method: .get) { UInt($0.status.code) })
                }
                return statuses
            }
        }
        let first = try await statuses(seed: 42)
        #expect(Set(first) == [200, 500])
        #expect(try await statuses(seed: 42) == first)
        #expect(try await statuses(seed: 43) != first)
    }
}

/// A device as `GET /devices` lists it, read back by the test.
struct ServerDeviceForTest: Decodable {
    let id: String
    let installationDate: String?
}
