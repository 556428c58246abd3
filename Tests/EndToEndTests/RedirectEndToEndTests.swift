import Foundation
import Testing
import TestSupport

/// Issue 37: redirects as curl -L follows them: never from https to plain http, every hop
/// shown with -v, and Location read against the URL that was asked, proxy or not.
@Suite struct RedirectEndToEndTests {
    @Test func httpsNeverRedirectsToPlainHTTP() async throws {
        let sandbox = try Sandbox()
        let ca = try TestCA(sandbox: sandbox)
        try await withMockd(["--latency", "0", "--failure-rate", "0"], sandbox: sandbox) { mockd in
            let server = try RedirectingTLSServer(certificate: ca.serverCertificate, key: ca.serverKey,
                                                  location: mockd.url + "/conditions")
            defer { server.stop() }
            let run = try runTool("condtest", ["list", "-v", "--cacert", ca.caCertificate, "--server", server.url], sandbox: sandbox)
            #expect(run.status == 76, "\(run.stderr)")
            let message = run.stderr.split(separator: "\n").last.map(String.init) ?? ""
            #expect(message == "condtest: unexpected response, a redirect to \"\(mockd.url)/conditions\", from https to plain http: not followed (\(server.url)/conditions)")
            // The plain server was never asked.
            #expect(!mockd.log.contains("GET /conditions"), "\(mockd.log)")
        }
    }

    @Test func eachHopIsShownAndLocationIsReadAgainstTheURLAsked() async throws {
        let sandbox = try Sandbox()
        try await withMockd(["--latency", "0", "--failure-rate", "0", "--quiet"], sandbox: sandbox) { mockd in
            // A server under a base path answers with an absolute path: the hop leaves the base.
            let stub = try StubServer(response: "HTTP/1.1 302 Found\r\nLocation: \(mockd.url)/conditions\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            defer { stub.stop() }
            let run = try runTool("condtest", ["list", "-v", "--server", stub.url + "/base"], sandbox: sandbox)
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stderr.contains("> GET \(stub.url)/base/conditions\n"))
            #expect(run.stderr.contains("< 302 Found → \(mockd.url)/conditions\n> GET \(mockd.url)/conditions\n"), "\(run.stderr)")
            do {
                let proxy = try Tinyproxy(sandbox: sandbox)
                defer { proxy.stop() }
                let relative = try StubServer(response: "HTTP/1.1 302 Found\r\nLocation: /moved/x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
                defer { relative.stop() }
                let through = try runTool("condtest", ["list", "-v", "--server", relative.url + "/base", "--proxy", proxy.url, "--noproxy", "",
                                                       "--retries", "0"], sandbox: sandbox)
                #expect(through.stderr.contains("< 302 Found → \(relative.url)/moved/x\n"), "\(through.stderr)")
                #expect(proxy.requests.contains { $0.hasPrefix("GET \(relative.url)/moved/x ") }, "\(proxy.requests)")
                #expect(!proxy.requests.contains { $0.contains("/base/moved") }, "\(proxy.requests)")
            }
        }
    }
}

/// An HTTPS server (Python's ssl over a plain socket) that answers every request with a 302
/// to `location`; stopped by its owner, bounded by a watchdog.
final class RedirectingTLSServer: @unchecked Sendable {
    // @unchecked: `process` is only touched by the test that owns this object.
    let process = Process()
    let url: String

    init(certificate: String, key: String, location: String) throws {
        let script = """
            import socket, ssl, sys
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            context.load_cert_chain(sys.argv[1], sys.argv[2])
            listener = socket.socket()
            listener.bind(("127.0.0.1", 0))
            listener.listen(8)
            print(listener.getsockname()[1], flush=True)
            while True:
                client, _ = listener.accept()
                try:
                    connection = context.wrap_socket(client, server_side=True)
                    data = b""
                    while b"\\r\\n\\r\\n" not in data:
                        chunk = connection.recv(4096)
                        if not chunk: break
                        data += chunk
                    connection.sendall(b"HTTP/1.1 302 Found\\r\\nLocation: " + sys.argv[3].encode() + b"\\r\\nContent-Length: 0\\r\\nConnection: close\\r\\n\\r\\n")
                    connection.close()
                except Exception:
                    client.close()
            """
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", script, certificate, key, location]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        watch(process, limit: 300)
        let line = pipe.fileHandleForReading.availableLine()
        guard let port = Int(line.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            process.terminate()
            throw HarnessError("the TLS redirect server did not start")
        }
        url = "https://127.0.0.1:\(port)"
    }

    func stop() {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }
}

extension FileHandle {
    /// Bytes up to the first newline (or the end).
    func availableLine() -> String {
        var bytes: [UInt8] = []
        while true {
            let chunk = readData(ofLength: 1)
            guard let byte = chunk.first, byte != 0x0A else { break }
            bytes.append(byte)
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
