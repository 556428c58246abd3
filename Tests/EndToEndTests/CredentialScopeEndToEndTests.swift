import Foundation
import Testing
import TestSupport

/// Issue 46: credentials are a value bound to their server, sent by the one request path.
/// Every network command of every tool is redirected by its server (A) to a second origin
/// (B): A gets the credentials, B never does, and no write (PATCH, POST) follows at all.
@Suite struct CredentialScopeEndToEndTests {
    static let fast = ["--latency", "0", "--failure-rate", "0", "--quiet"]

    @Test func aRedirectToAnotherOriginNeverCarriesCredentials() async throws {
        let sandbox = try Sandbox()
        let second = try StubServer(response: "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
        defer { second.stop() }
        let first = try StubServer(response: "HTTP/1.1 307 Temporary Redirect\r\nLocation: \(second.url)/elsewhere\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
        defer { first.stop() }
        let withUser = first.url.replacingOccurrences(of: "http://", with: "http://alice:s3cret@")
        // A store with one change waiting, pulled from mockd (the store's own server is not
        // what this test is about).
        try await withMockd(Self.fast, sandbox: sandbox) { mockd throws in
            #expect(try runTool("devsync", ["pull", "-q", "--server", mockd.url], sandbox: sandbox).status == 0)
            #expect(try runTool("devsync", ["install", "WWM-0001-12", "--at", "2024-03-04 09:15"], sandbox: sandbox).status == 0)
        }
        _ = try sandbox.write("home/.netrc", "machine 127.0.0.1 login alice password fromnetrc\n")
        chmod(sandbox.home + "/.netrc", 0o600)
        let runs: [(String, [String], [String: String])] = [
            ("condtest", ["list"], [:]), ("condtest", ["show", "c1"], [:]), ("condtest", ["eval", "c1", "x"], [:]),
            ("blogctl", ["list"], [:]), ("blogctl", ["show", "p1"], [:]), ("blogctl", ["read", "p1"], [:]),
            ("blogctl", ["links", "p1"], [:]), ("blogctl", ["avatar", "p1", "-o", "-"], [:]),
            ("devsync", ["pull", "--switch-server"], [:]), ("devsync", ["sync", "--switch-server"], [:]),
            ("passcode", ["fetch"], ["PASSCODE_USER": "alice", "PASSCODE_PASSWORD": "fromenv"]),
            ("passcode", ["fetch"], ["PASSCODE_USER": "alice"]),
        ]
        for (tool, arguments, environment) in runs {
            let before = (first.requests.count, second.requests.count)
            let server = tool == "passcode" ? first.url : withUser
            let run = try runTool(tool, arguments + ["--server", server, "--retries", "0", "--timeout", "20"], sandbox: sandbox,
                                  environment: environment)
            #expect(!run.signaled && run.status != 0, "\(tool) \(arguments): \(run.stderr)")
            #expect(!run.stderr.contains("s3cret") && !run.stderr.contains("fromenv") && !run.stderr.contains("fromnetrc"), "\(run.stderr)")
            let asked = Array(first.requests.dropFirst(before.0))
            let followed = Array(second.requests.dropFirst(before.1))
            #expect(!asked.isEmpty && asked.allSatisfy { $0.lowercased().contains("\nauthorization: basic ") }, "\(tool) \(arguments): \(asked)")
            #expect(!followed.contains { $0.lowercased().contains("authorization") }, "\(tool) \(arguments): \(followed)")
            let writes = asked.contains { $0.hasPrefix("PATCH ") || $0.hasPrefix("POST ") }
            if writes {
                // A write never follows a redirect to another origin: one line naming both.
                #expect(followed.isEmpty, "\(tool) \(arguments): \(followed)")
                #expect(run.stderr.contains("another origin: not followed") && run.stderr.contains(second.url + "/elsewhere"), "\(run.stderr)")
            } else {
                #expect(!followed.isEmpty, "\(tool) \(arguments): the redirect was not followed: \(run.stderr)")
            }
        }
        // The change the refused redirect would have carried is still waiting.
        let pending = try runTool("devsync", ["pending"], sandbox: sandbox)
        #expect(pending.stdout.contains("WWM-0001-12"), "\(pending.stdout)\(pending.stderr)")
    }

    /// A download ends within --timeout however slowly its bytes come, when no progress shows.
    @Test func aTrickledPostEndsWithTheTimeout() throws {
        let sandbox = try Sandbox()
        let metadata = #"{"id":"p1","title":"t","publishDate":"2018-06-04T09:30:00Z","postId":"p1","summary":"s","author":{"name":"a","image":"/i.jpg","title":"w"}}"#
        let body = #"{"id":"p1","metadata":\#(metadata),"body":"\#(String(repeating: "x", count: 400))"}"#
        let quick = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(metadata.utf8.count)\r\nConnection: close\r\n\r\n" + metadata
        let chunked = String(body.utf8.count, radix: 16) + "\r\n" + body + "\r\n0\r\n\r\n"
        for (framing, payload) in [("Content-Length: \(body.utf8.count)", body), ("Transfer-Encoding: chunked", chunked)] {
            // The metadata at once, the post's body a byte every half second.
            let stub = try StubServer(response: "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\(framing)\r\nConnection: close\r\n\r\n" + payload,
                                      trickle: .milliseconds(500), others: ["/post-metadata/": quick])
            defer { stub.stop() }
            // The body would take over three minutes; the limit only guards a hang.
            let run = try runTool("blogctl", ["read", "p1", "--timeout", "3", "--retries", "0", "--server", stub.url], sandbox: sandbox, limit: 60)
            #expect(run.status == 69, "\(framing): \(run.stderr)")
            #expect(run.stderr.contains("within 3s"), "\(framing): \(run.stderr)")
            #expect(stub.requests.contains { $0.hasPrefix("GET /post/p1 ") }, "\(stub.requests)")
        }
    }

    /// passcode's call too: a server that keeps the event stream alive with comments, a byte
    /// at a time, never delivering the events, is ended by --timeout.
    @Test func aTrickledEventStreamEndsWithTheTimeout() throws {
        let sandbox = try Sandbox()
        let comments = String(repeating: ": still here\n", count: 1_000)
        let stub = try StubServer(response: "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\n" + comments,
                                  trickle: .milliseconds(100))
        defer { stub.stop() }
        let run = try runTool("passcode", ["fetch", "--timeout", "2", "--retries", "0", "--server", stub.url], sandbox: sandbox,
                              environment: ["PASSCODE_USER": "u", "PASSCODE_PASSWORD": "p"], limit: 60)
        #expect(run.status == 69, "\(run.stderr)")
        #expect(run.stderr.contains("within 2s"), "\(run.stderr)")
    }
}
