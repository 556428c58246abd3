import Foundation
import Testing

/// $XDG_CONFIG_HOME/toolbox/config.yml as a user writes it: the tool's mapping over the
/// shared keys, variables and flags over both, `TOOL config` saying where each came from,
/// and a mistake one warning line with file:line.
@Suite struct ConfigEndToEndTests {
    @Test func theFileSetsTheServerAndFlagsAndVariablesWin() async throws {
        let sandbox = try Sandbox()
        try await withMockd(["--quiet", "--latency", "0", "--failure-rate", "0"], sandbox: sandbox) { mockd in
            let config = sandbox.root + "/config/toolbox/config.yml"
            try FileManager.default.createDirectory(atPath: sandbox.root + "/config/toolbox", withIntermediateDirectories: true)
            try """
                # the server everyone uses, but devsync has its own
                server: http://127.0.0.1:9
                retries: 0
                devsync:
                  server: \(mockd.url)   # the field server
                colour: blue
                """.write(toFile: config, atomically: true, encoding: .utf8)
            // devsync takes its own mapping's server; condtest the shared one.
            let pull = try runTool("devsync", ["pull"], sandbox: sandbox)
            #expect(pull.status == 0, "\(pull.stderr)")
            #expect(pull.stderr.contains("devsync: warning: \(config):6: unknown key \"colour\"\n"))
            #expect(pull.stderr.contains("88 devices from \(mockd.url)"))
            let list = try runTool("condtest", ["list"], sandbox: sandbox)
            #expect(list.status == 69 && list.stderr.contains("connection refused (http://127.0.0.1:9/conditions)"))
            // A variable, then a flag, win over the file.
            #expect(try runTool("condtest", ["list"], sandbox: sandbox, environment: ["CONDTEST_SERVER": mockd.url]).status == 0)
            #expect(try runTool("condtest", ["list", "--server", mockd.url], sandbox: sandbox).status == 0)
            let shown = try runTool("devsync", ["config"], sandbox: sandbox)
            #expect(shown.lines.contains("server\t\(mockd.url)\t\(config):5 (devsync:)"))
            #expect(shown.lines.contains("retries\t0\t\(config):3"))
            #expect(shown.lines.contains("timeout\t30\tdefault"))
            let overridden = try runTool("devsync", ["config"], sandbox: sandbox, environment: ["DEVSYNC_SERVER": "http://127.0.0.1:7"])
            #expect(overridden.lines.contains("server\thttp://127.0.0.1:7\t$DEVSYNC_SERVER"))
        }
    }
}
