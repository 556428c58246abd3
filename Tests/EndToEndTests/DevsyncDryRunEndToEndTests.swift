import Foundation
import Testing

/// Issue 14: `devsync sync --dry-run` shows what sync would send and sends nothing.
@Suite struct DevsyncDryRunEndToEndTests {
    func devsync(_ arguments: [String], server: String, sandbox: Sandbox) throws -> ToolRun {
        try runTool("devsync", arguments, sandbox: sandbox, environment: ["DEVSYNC_SERVER": server])
    }

    @Test func aDryRunPrintsEachPatchInOrderAndSendsNothing() async throws {
        let sandbox = try Sandbox()
        try await withMockd(["--latency", "0", "--failure-rate", "0"], sandbox: sandbox, tailLog: true) { mockd in
            #expect(try devsync(["pull", "-q"], server: mockd.url, sandbox: sandbox).status == 0)
            #expect(try devsync(["install", "CWM-1244-65", "--at", "2024-05-01T10:00:00Z", "-q"], server: mockd.url, sandbox: sandbox).status == 0)
            #expect(try devsync(["uninstall", "CWM-0012-62", "-q"], server: mockd.url, sandbox: sandbox).status == 0)
            let requestsBefore = mockd.tail!.lines.count

            let run = try devsync(["sync", "--dry-run"], server: mockd.url, sandbox: sandbox)
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.lines == [
                #"PATCH /devices/CWM-1244-65 {"installationDate":"2024-05-01T10:00:00Z"}"#,
                #"PATCH /devices/CWM-0012-62 {"installationDate":null}"#,
            ])
            #expect(run.stderr.contains("2 changes would be sent; nothing was sent"))

            let json = try devsync(["sync", "--dry-run", "--json", "-q"], server: mockd.url, sandbox: sandbox)
            let items = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: String]]
            #expect(items?.map { $0["device"] ?? "" } == ["CWM-1244-65", "CWM-0012-62"])
            #expect(items?.first?["path"] == "/devices/CWM-1244-65")

            // Nothing reached the server, and both changes are still pending.
            #expect(mockd.tail!.lines.count == requestsBefore, "\(mockd.tail!.lines.suffix(3))")
            let pending = try devsync(["pending"], server: mockd.url, sandbox: sandbox)
            #expect(pending.lines.count == 2)
        }
    }

    @Test func aDryRunNeedsNoServer() async throws {
        let sandbox = try Sandbox()
        try await withMockd(["--quiet", "--latency", "0", "--failure-rate", "0"], sandbox: sandbox) { mockd in
            let pull = try devsync(["pull", "-q"], server: mockd.url, sandbox: sandbox)
            let install = try devsync(["install", "CWM-1244-65", "-q"], server: mockd.url, sandbox: sandbox)
            #expect(pull.status == 0 && install.status == 0, "\(pull.stderr)\(install.stderr)")
        }
        // mockd is gone: a real sync would fail; the dry run does not care.
        let run = try devsync(["sync", "--dry-run", "-q"], server: "http://127.0.0.1:9", sandbox: sandbox)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.lines.count == 1)
        #expect(run.stderr.isEmpty)
    }
}
