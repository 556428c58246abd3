import Glibc
import Testing
@testable import ToolboxKit

@Suite struct APIClientTests {
    /// A port on which nothing listens, held for the test: a socket bound to it and never
    /// listening refuses every connection, and keeps the port from another test's server
    /// (closed at once, it could go to a server of a test running meanwhile).
    final class RefusingPort {
        let port: Int
        private let fd: Int32

        init() {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = 0
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            withUnsafeMutablePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { _ = bind(fd, $0, length) }
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { _ = getsockname(fd, $0, &length) }
            }
            self.fd = fd
            port = Int(UInt16(bigEndian: address.sin_port))
        }

        deinit { close(fd) }
    }

    @Test func connectionRefusedIsExit69AndNamesTheURL() async throws {
        let refusing = RefusingPort()
        defer { withExtendedLifetime(refusing) {} }
        let base = "http://127.0.0.1:\(refusing.port)"
        let server = try ServerURL(base)
        do {
            // The deadline races the request in a task group. In the whole suite the end-to-end
            // tests hold the few shared threads for minutes, so the request's task may not even
            // start before a 300 s deadline has passed (seen twice): longer than any suite runs.
            // Refused at once when it runs, the test still ends as soon as a thread is free.
            _ = try await APIClient.using(server: server, timeout: 3_600, retries: 1) { client in
                try await client.getJSON("/conditions", as: [String].self)
            }
            Issue.record("expected a failure")
        } catch let error as ToolError {
            #expect(error.exitStatus == .unavailable)
            #expect(error.exitStatus.rawValue == 69)
            #expect(error.message.contains("\(base)/conditions"))
            #expect(error.message.contains("connection refused"))
            #expect(!error.message.contains("mockd"))
        }
    }

    @Test func verboseLogsTheRequestLine() async throws {
        let refusing = RefusingPort()
        defer { withExtendedLifetime(refusing) {} }
        let base = "http://127.0.0.1:\(refusing.port)"
        let collected = LinesBox()
        // A deadline no starved thread pool can reach first (see above).
        _ = try? await APIClient.using(server: try ServerURL(base), timeout: 3_600, retries: 0,
                                       verbose: { collected.append($0) }) { client in
            try await client.send(.GET, "/x")
        }
        #expect(collected.all.first == "> GET \(base)/x")
    }
}

final class LinesBox: Sendable {
    private let lines = Synchronization.Mutex<[String]>([])
    func append(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }
}

import Synchronization

/// Issue 37: redirects as curl -L follows them, on every path.
@Suite struct RedirectTests {
    @Test func locationIsReadAgainstTheRequestsURL() throws {
        let from = "http://127.0.0.1:8106/api/conditions/2?x=1"
        #expect(try APIClient.redirectTarget("/moved/x", from: from) == "http://127.0.0.1:8106/moved/x")
        #expect(try APIClient.redirectTarget("other", from: from) == "http://127.0.0.1:8106/api/conditions/other")
        #expect(try APIClient.redirectTarget("other", from: "http://h:1") == "http://h:1/other")
        #expect(try APIClient.redirectTarget("//elsewhere:9/y", from: from) == "http://elsewhere:9/y")
        #expect(try APIClient.redirectTarget("https://secure/x#frag", from: from) == "https://secure/x")
        #expect(try APIClient.redirectTarget("HTTP://127.0.0.1:8106/x", from: from) == "HTTP://127.0.0.1:8106/x")
    }

    @Test func neverFromHTTPSToHTTPNorToAnotherScheme() throws {
        #expect(throws: ToolError.self) { try APIClient.redirectTarget("http://plain.test/x", from: "https://secure.test/a") }
        #expect(try APIClient.redirectTarget("//other.test/x", from: "HTTPS://secure.test/a") == "https://other.test/x")
        #expect(throws: ToolError.self) { try APIClient.redirectTarget("file:///etc/passwd", from: "http://h/a") }
        do {
            _ = try APIClient.redirectTarget("http://u:pw@plain.test/x", from: "https://secure.test/a")
        } catch {
            #expect(error.message == "unexpected response from https://secure.test/a: a redirect to \"http://u:***@plain.test/x\", from https to plain http: not followed")
        }
    }
}
