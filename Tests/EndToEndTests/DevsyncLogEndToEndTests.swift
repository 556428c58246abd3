import Foundation
import Testing

/// Issue 14: `devsync log`, the story of a change, as a user reads it.
@Suite struct DevsyncLogEndToEndTests {
    func devsync(_ arguments: [String], server: String, sandbox: Sandbox) throws -> ToolRun {
        try runTool("devsync", arguments, sandbox: sandbox, environment: ["DEVSYNC_SERVER": server])
    }

    @Test func theLogTellsWhatHappenedNewestFirst() async throws {
        let sandbox = try Sandbox()
        try await withMockd(["--quiet", "--latency", "0", "--failure-rate", "0"], sandbox: sandbox) { mockd in
            #expect(try devsync(["pull", "-q"], server: mockd.url, sandbox: sandbox).status == 0)
            #expect(try devsync(["install", "CWM-1244-65", "--at", "2024-05-01T10:00:00Z", "-q"], server: mockd.url, sandbox: sandbox).status == 0)
            #expect(try devsync(["sync", "-q"], server: mockd.url, sandbox: sandbox).status == 0)

            let log = try devsync(["log", "CWM-1244-65"], server: mockd.url, sandbox: sandbox)
            #expect(log.status == 0, "\(log.stderr)")
            let rows = log.lines.map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
            #expect(rows.map { $0.count } == [6, 6])
            #expect(rows.map { $0[2] } == ["synced", "recorded"])
            #expect(rows[1][4] == "2024-05-01T10:00:00Z" && rows[1][5] == "install")
            #expect(rows[0][5] == "attempt 1")

            let json = try devsync(["log", "--json"], server: mockd.url, sandbox: sandbox)
            let items = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]]
            #expect(items?.first?["event"] as? String == "synced")
            #expect(try devsync(["log", "--since", "2999-01-01T00:00:00Z"], server: mockd.url, sandbox: sandbox).lines.isEmpty)
        }
    }
}
