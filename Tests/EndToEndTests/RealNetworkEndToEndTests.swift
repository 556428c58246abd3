import Foundation
import Testing
import TestSupport

/// Issue 11: the tools against real peers, as users meet servers nobody here wrote: mockd
/// over TLS with a throwaway CA, tinyproxy, and stub servers that answer badly.
@Suite struct RealNetworkEndToEndTests {
    static let fast = ["--latency", "0", "--failure-rate", "0", "--massive-size", "0", "--quiet"]
    static let login = ["PASSCODE_USER": "Runloop", "PASSCODE_PASSWORD": "Run!@0p"]

    /// One read-only command of each tool, with the variable naming its server.
    static let commands: [(tool: String, arguments: [String], variable: String)] = [
        ("condtest", ["list"], "CONDTEST_SERVER"), ("blogctl", ["list"], "BLOGCTL_SERVER"),
        ("devsync", ["pull"], "DEVSYNC_SERVER"), ("passcode", ["fetch"], "PASSCODE_SERVER"),
    ]

    func run(_ command: (tool: String, arguments: [String], variable: String), _ extra: [String], server: String,
             sandbox: Sandbox, environment: [String: String] = [:]) throws -> ToolRun {
        try runTool(command.tool, command.arguments + extra, sandbox: sandbox,
                    environment: Self.login.merging([command.variable: server]) { $1 }.merging(environment) { $1 }, limit: 60)
    }

    @Test func everyToolSpeaksHTTPSWithATrustedCA() async throws {
        let sandbox = try Sandbox()
        let ca = try TestCA(sandbox: sandbox)
        try await withMockd(Self.fast + ["--tls-cert", ca.serverCertificate, "--tls-key", ca.serverKey], sandbox: sandbox) { mockd in
            #expect(mockd.url.hasPrefix("https://127.0.0.1:"))
            for command in Self.commands {
                let byFlag = try run(command, ["--cacert", ca.caCertificate], server: mockd.url, sandbox: sandbox)
                #expect(byFlag.status == 0, "\(command.tool) --cacert: \(byFlag.stderr)")
                let byFile = try run(command, [], server: mockd.url, sandbox: sandbox, environment: ["SSL_CERT_FILE": ca.caCertificate])
                #expect(byFile.status == 0, "\(command.tool) SSL_CERT_FILE: \(byFile.stderr)")
                let refused = try run(command, ["-v"], server: mockd.url, sandbox: sandbox)
                #expect(refused.status == 78, "\(command.tool) untrusted: \(refused.stderr)")
                let lines = refused.stderr.split(separator: "\n").filter { !$0.hasPrefix(">") && !$0.hasPrefix("<") && !$0.hasPrefix("*") }
                #expect(lines.count == 1 && lines[0].hasPrefix("\(command.tool): untrusted certificate, ") && lines[0].contains(" (127.0.0.1:") && lines[0].contains("--cacert"),
                        "\(refused.stderr)")
                #expect(!refused.stderr.contains("* retry"), "a certificate problem is not retried")
                let insecure = try run(command, ["-k"], server: mockd.url, sandbox: sandbox)
                #expect(insecure.status == 0, "\(command.tool) -k: \(insecure.stderr)")
                #expect(insecure.stderr.contains("\(command.tool): warning: -k: the certificate of 127.0.0.1 is not checked"))
            }
            let folder = sandbox.root + "/certs"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: ca.caCertificate, toPath: folder + "/test-ca.pem")
            let byDirectory = try run(Self.commands[0], [], server: mockd.url, sandbox: sandbox, environment: ["SSL_CERT_DIR": folder])
            #expect(byDirectory.status == 0, "\(byDirectory.stderr)")
        }
    }

    @Test func aCertificateForAnotherHostIsRefusedInWords() async throws {
        let sandbox = try Sandbox()
        let ca = try TestCA(sandbox: sandbox)
        try await withMockd(Self.fast + ["--tls-cert", ca.wrongHostCertificate, "--tls-key", ca.serverKey], sandbox: sandbox) { mockd in
            let run = try run(Self.commands[0], ["--cacert", ca.caCertificate], server: mockd.url, sandbox: sandbox)
            #expect(run.status == 78)
            #expect(run.stderr.contains("it is not valid for this host name"), "\(run.stderr)")
            #expect(!run.stderr.contains("NIOSSL") && !run.stderr.contains("Error("), "\(run.stderr)")
        }
    }

    @Test func anExpiredCertificateIsCalledExpired() async throws {
        let sandbox = try Sandbox()
        let ca = try TestCA(sandbox: sandbox)
        try ca.makeExpired()
        try await withMockd(Self.fast + ["--tls-cert", ca.expiredCertificate, "--tls-key", ca.serverKey], sandbox: sandbox) { mockd in
            let expired = try run(Self.commands[0], ["--cacert", ca.caCertificate], server: mockd.url, sandbox: sandbox)
            #expect(expired.status == 78)
            #expect(expired.stderr.hasPrefix("condtest: untrusted certificate, it expired on 2020-01-02 (127.0.0.1:")
                    && expired.stderr.contains("); its server must renew it"), "\(expired.stderr)")
        }
        try await withMockd(Self.fast + ["--tls-cert", ca.serverCertificate, "--tls-key", ca.serverKey], sandbox: sandbox) { mockd in
            let untrusted = try run(Self.commands[0], [], server: mockd.url, sandbox: sandbox)
            #expect(untrusted.stderr.hasPrefix("condtest: untrusted certificate, no trusted authority signed it"), "\(untrusted.stderr)")
        }
    }

    @Test func proxiesAreUsedAsCurlUsesThem() async throws {
        let sandbox = try Sandbox()
        let ca = try TestCA(sandbox: sandbox)
        let proxy = try Tinyproxy(sandbox: sandbox)
        defer { proxy.stop() }
        try await withMockd(Self.fast, sandbox: sandbox) { plain in
            try await withMockd(Self.fast + ["--tls-cert", ca.serverCertificate, "--tls-key", ca.serverKey], sandbox: sandbox) { tls in
                let plainPort = plain.url.split(separator: ":").last.map(String.init) ?? ""
                let tlsPort = tls.url.split(separator: ":").last.map(String.init) ?? ""
                func relayed(_ port: String) -> Int { proxy.requests.filter { $0.contains("127.0.0.1:\(port)") }.count }

                // http_proxy for http; https_proxy (CONNECT) for https; every tool.
                for command in Self.commands {
                    let before = relayed(plainPort)
                    let http = try run(command, [], server: plain.url, sandbox: sandbox, environment: ["http_proxy": proxy.url])
                    #expect(http.status == 0, "\(command.tool): \(http.stderr)")
                    #expect(relayed(plainPort) > before, "\(command.tool) did not go through the proxy")
                }
                let beforeTLS = relayed(tlsPort)
                let https = try run(Self.commands[0], ["--cacert", ca.caCertificate], server: tls.url, sandbox: sandbox,
                                    environment: ["HTTPS_PROXY": proxy.url])
                #expect(https.status == 0, "\(https.stderr)")
                #expect(proxy.requests.contains("CONNECT 127.0.0.1:\(tlsPort) HTTP/1.1") && relayed(tlsPort) > beforeTLS)

                // Not through the proxy: NO_PROXY, --noproxy, and upper-case HTTP_PROXY for http (httpoxy).
                let count = relayed(plainPort)
                for environment in [["http_proxy": proxy.url, "NO_PROXY": "localhost,127.0.0.1"], ["HTTP_PROXY": proxy.url],
                                    ["all_proxy": proxy.url, "no_proxy": "*"]] {
                    let direct = try run(Self.commands[0], [], server: plain.url, sandbox: sandbox, environment: environment)
                    #expect(direct.status == 0, "\(environment): \(direct.stderr)")
                }
                let flagged = try run(Self.commands[0], ["--noproxy", "127.0.0.1"], server: plain.url, sandbox: sandbox,
                                      environment: ["http_proxy": proxy.url])
                #expect(flagged.status == 0)
                #expect(relayed(plainPort) == count, "\(proxy.requests)")

                // --proxy wins over the environment; all_proxy is the fallback.
                let byFlag = try run(Self.commands[0], ["--proxy", proxy.url], server: plain.url, sandbox: sandbox)
                #expect(byFlag.status == 0)
                let byAll = try run(Self.commands[0], [], server: plain.url, sandbox: sandbox, environment: ["ALL_PROXY": proxy.url])
                #expect(byAll.status == 0)
                #expect(relayed(plainPort) == count + 2, "\(proxy.requests)")

                let dead = try run(Self.commands[0], ["--retries", "0"], server: plain.url, sandbox: sandbox,
                                   environment: ["http_proxy": "http://127.0.0.1:9"])
                #expect(dead.status == 69, "\(dead.stderr)")
            }
        }
    }

    /// The proxy setup most users have: CONNECT only to port 443. Plain HTTP goes as
    /// absolute-form requests (`GET http://host:port/path`), as curl sends it; `--proxytunnel`
    /// asks for CONNECT, and the proxy's refusal is named as the proxy's, once, not retried.
    @Test func plainHTTPGoesThroughAProxyThatAllowsConnectOnlyTo443() async throws {
        let sandbox = try Sandbox()
        let proxy = try Tinyproxy(sandbox: sandbox, connectPorts: [443])
        defer { proxy.stop() }
        try await withMockd(Self.fast, sandbox: sandbox) { mockd in
            let port = mockd.url.split(separator: ":").last.map(String.init) ?? ""
            for command in Self.commands {
                let run = try run(command, ["-v"], server: mockd.url, sandbox: sandbox, environment: ["http_proxy": proxy.url])
                #expect(run.status == 0, "\(command.tool): \(run.stderr)")
            }
            #expect(proxy.requests.contains { $0.hasPrefix("GET http://127.0.0.1:\(port)/") }, "\(proxy.requests)")
            #expect(!proxy.requests.contains { $0.hasPrefix("CONNECT") }, "\(proxy.requests)")

            let tunnel = try run(Self.commands[0], ["--proxytunnel", "-v"], server: mockd.url, sandbox: sandbox,
                                 environment: ["http_proxy": proxy.url])
            #expect(tunnel.status == 69, "\(tunnel.stderr)")
            let proxyName = String(proxy.url.dropFirst("http://".count))
            #expect(tunnel.stderr.contains("the proxy refused to relay the request") && tunnel.stderr.contains("(the proxy \(proxyName), for "), "\(tunnel.stderr)")
            #expect(!tunnel.stderr.contains("is mockd running") && !tunnel.stderr.contains("* retry"), "\(tunnel.stderr)")
            #expect(proxy.requests.filter { $0.hasPrefix("CONNECT 127.0.0.1:\(port)") }.count == 1, "\(proxy.requests)")
        }
        // A proxy that is not there is named, not the server.
        let dead = try run(Self.commands[0], ["--retries", "0"], server: "http://127.0.0.1:9", sandbox: sandbox,
                           environment: ["http_proxy": "http://127.0.0.1:9"])
        #expect(dead.status == 69 && dead.stderr.contains("(the proxy 127.0.0.1:9"), "\(dead.stderr)")
        #expect(!dead.stderr.contains("is mockd running"), "\(dead.stderr)")
    }

    @Test func proxyCredentialsComeFromTheProxyURL() async throws {
        let sandbox = try Sandbox()
        let proxy = try Tinyproxy(sandbox: sandbox, credentials: ("agent", "s3cret"))
        defer { proxy.stop() }
        try await withMockd(Self.fast, sandbox: sandbox) { mockd in
            let withLogin = proxy.url.replacingOccurrences(of: "http://", with: "http://agent:s3cret@")
            let good = try run(Self.commands[0], ["-v"], server: mockd.url, sandbox: sandbox, environment: ["http_proxy": withLogin])
            #expect(good.status == 0, "\(good.stderr)")
            #expect(good.stderr.contains("* through the proxy agent:***@127.0.0.1:") && !good.stderr.contains("s3cret"), "\(good.stderr)")
            let without = try run(Self.commands[0], ["--retries", "0"], server: mockd.url, sandbox: sandbox, environment: ["http_proxy": proxy.url])
            // 407 is the proxy's own answer: named as the proxy's, exit 77 (credentials), never retried.
            #expect(without.status == 77, "\(without.stderr)")
            #expect(without.stderr.contains("the proxy wants credentials, HTTP 407 (127.0.0.1:"), "\(without.stderr)")
        }
    }

    @Test func sharedOptionsWorkBeforeTheSubcommand() async throws {
        let sandbox = try Sandbox()
        try await withMockd(Self.fast, sandbox: sandbox) { mockd in
            for (tool, arguments) in [("condtest", ["--server", mockd.url, "list"]), ("blogctl", ["--json", "--server=\(mockd.url)", "list"]),
                                      ("devsync", ["-q", "--server", mockd.url, "--timeout", "10", "pull"])] {
                let run = try runTool(tool, arguments, sandbox: sandbox)
                #expect(run.status == 0, "\(tool) \(arguments): \(run.stderr)")
            }
        }
    }

    @Test func timeoutBoundsASlowlySentBody() throws {
        let sandbox = try Sandbox()
        let body = "[" + String(repeating: #"{"name":"n","_id":"i"},"#, count: 200) + #"{"name":"n","_id":"i"}]"#
        let stub = try StubServer(response: "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n" + body,
                                  trickle: .milliseconds(200))
        defer { stub.stop() }
        // The body would take 20 minutes; the run must end with the timeout (the limit only guards a hang).
        let run = try runTool("condtest", ["list", "--timeout", "2", "--retries", "2"], sandbox: sandbox,
                              environment: ["CONDTEST_SERVER": stub.url], limit: 30)
        #expect(run.status == 69, "\(run.stderr)")
        #expect(run.stderr == "condtest: no answer within 2s (\(stub.url)/conditions); try a larger --timeout\n")
    }

    @Test func credentialsInTheURLAreSentAndNeverShown() throws {
        let sandbox = try Sandbox()
        let stub = try StubServer(response: "HTTP/1.1 500 Internal Server Error\r\nContent-Length: 0\r\n\r\n")
        defer { stub.stop() }
        let server = stub.url.replacingOccurrences(of: "http://", with: "http://alice:s%3Acret@")
        let run = try runTool("condtest", ["list", "-v", "--retries", "0", "--server", server], sandbox: sandbox)
        #expect(run.status == 69)
        #expect(stub.requests.first?.contains("Authorization: Basic \(Data("alice:s:cret".utf8).base64EncodedString())") == true,
                "\(stub.requests)")
        #expect(!run.stderr.contains("cret") && run.stderr.contains("alice:***@127.0.0.1"), "\(run.stderr)")
    }

    @Test func brokenRecordsAreSkippedWithOneWarningEach() throws {
        let sandbox = try Sandbox()
        let conditions = #"[{"name":"good","_id":"a"},{"_id":"no-name"},{"name":"also good","_id":"b/c"}]"#
        let posts = #"[{"id":"1","title":"t","publishDate":"soon","postId":"1","summary":"s","author":{"name":"a","image":"/i.jpg","title":"w"}},"#
            + #"{"id":"2","title":"t2","publishDate":"2018-06-04T09:30:00Z","postId":"2","summary":"s","author":{"name":"a","image":"/i.jpg","title":"w"}}]"#
        let devices = #"[{"id":"D-1","type":"gas","meterPointDescription":"m","installationDate":null},{"id":"D-2","type":"heating"}]"#
        for (tool, arguments, variable, body, kept, warning) in [
            ("condtest", ["list"], "CONDTEST_SERVER", conditions, 2, "condtest: warning: skipped condition \"no-name\" (record 1): [1].name: missing"),
            ("blogctl", ["list"], "BLOGCTL_SERVER", posts, 1, "blogctl: warning: skipped post \"1\" (record 0): [0].publishDate: expected an ISO 8601 date, found \"soon\""),
            ("devsync", ["pull"], "DEVSYNC_SERVER", devices, 0, "devsync: warning: skipped device \"D-2\" (record 1): [1].meterPointDescription: missing"),
        ] {
            let stub = try StubServer(response: HostileReplyEndToEndTests.json(body))
            defer { stub.stop() }
            let run = try runTool(tool, arguments, sandbox: sandbox, environment: [variable: stub.url])
            #expect(run.status == 0, "\(tool): \(run.stderr)")
            #expect(run.stderr.split(separator: "\n").first.map(String.init) == warning, "\(tool): \(run.stderr)")
            if tool != "devsync" { #expect(run.lines.count == kept, "\(tool): \(run.stdout)") }
        }
        // The device of a type a newer server added is kept, shown as it is.
        let list = try runTool("devsync", ["list"], sandbox: sandbox)
        #expect(list.lines.count == 1 && list.lines[0].hasPrefix("D-1\tgas\t"), "\(list.stdout)")
    }

    @Test func brokenServersReadAsWhatTheyAre() throws {
        let sandbox = try Sandbox()
        let cases: [(String, Int32, String)] = [
            ("HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n", 69, "is not the API's base URL"),
            ("HTTP/1.1 302 Found\r\nLocation: /conditions\r\nContent-Length: 0\r\nConnection: close\r\n\r\n", 76, "the server redirects in a loop"),
            ("SSH-2.0-OpenSSH_9.2\r\n\r\n", 76, "the reply is not valid HTTP"),
            ("HTTP/1.1 200 OK\r\nX-Bad: a\u{1}b\r\nContent-Length: 2\r\n\r\n[]", 76, ""),
        ]
        for (response, status, words) in cases {
            let stub = try StubServer(response: response)
            defer { stub.stop() }
            let run = try runTool("condtest", ["list", "-v"], sandbox: sandbox, environment: ["CONDTEST_SERVER": stub.url])
            let message = run.stderr.split(separator: "\n").last.map(String.init) ?? ""
            #expect(run.status == status, "\(response.debugDescription): \(run.stderr)")
            #expect(words.isEmpty || message.contains(words), "\(message)")
            #expect(!run.stderr.contains("* retry"), "not retried: \(run.stderr)")
            // Our words, reason first, not a Swift error's description.
            #expect(!message.contains("Error") && !message.contains("NIO") && !message.contains("(\"") && message.hasPrefix("condtest: "), "\(message)")
        }
    }
}
