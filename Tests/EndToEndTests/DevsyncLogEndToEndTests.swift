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
            // Issue 47: the history names the server.
            #expect(rows[0][5] == "attempt 1 to \(mockd.url)")

            let json = try devsync(["log", "--json"], server: mockd.url, sandbox: sandbox)
            let items = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]]
            #expect(items?.first?["event"] as? String == "synced")
            #expect(try devsync(["log", "--since", "2999-01-01T00:00:00Z"], server: mockd.url, sandbox: sandbox).lines.isEmpty)
        }
    }

    /// Issue 47: a store belongs to the server it was first pulled from. Another server is
    /// refused in one line naming both, for pull, sync and ui; `status` names the store's
    /// server; `--switch-server` moves it, keeping the pending change, which then goes to the
    /// new server; the pulls in the history name where each value came from.
    @Test func aStoreKnowsItsServer() async throws {
        let sandbox = try Sandbox()
        try await withMockd(["--latency", "0", "--failure-rate", "0"], sandbox: sandbox, tailLog: true) { first in
            try await withMockd(["--latency", "0", "--failure-rate", "0"], sandbox: sandbox, tailLog: true) { second in
                let fresh = try devsync(["status"], server: first.url, sandbox: sandbox)
                #expect(fresh.lines.contains("server\t\(first.url)"), "\(fresh.stdout)")
                #expect(try devsync(["pull", "-q"], server: first.url, sandbox: sandbox).status == 0)
                #expect(try devsync(["install", "CWM-1244-65", "--at", "2024-05-01T10:00:00Z", "-q"], server: first.url, sandbox: sandbox).status == 0)
                for command in [["pull"], ["sync"], ["ui"]] {
                    let refused = try devsync(command, server: second.url, sandbox: sandbox)
                    #expect(refused.status == 64, "\(command): \(refused.stderr)")
                    #expect(refused.stderr.split(separator: "\n").count == 1 && refused.stderr.contains("belongs to \(first.url), not \(second.url)")
                            && refused.stderr.contains("--switch-server"), "\(command): \(refused.stderr)")
                }
                #expect(second.tail!.lines.filter { $0.hasPrefix("GET /devices") || $0.hasPrefix("PATCH") }.isEmpty)
                let status = try devsync(["status"], server: second.url, sandbox: sandbox)
                #expect(status.lines.contains { $0.hasPrefix("server\t\(first.url) (configured: \(second.url)") }, "\(status.stdout)")
                let moved = try devsync(["sync", "--switch-server"], server: second.url, sandbox: sandbox)
                #expect(moved.status == 0, "\(moved.stderr)")
                #expect(moved.stderr.contains("the store moves from \(first.url) to \(second.url); 1 pending change will be sent to \(second.url)"), "\(moved.stderr)")
                second.tail!.wait(for: 1) { $0.hasPrefix("PATCH /devices/CWM-1244-65") }
                #expect(second.tail!.lines.contains { $0.hasPrefix("PATCH /devices/CWM-1244-65") })
                #expect(!first.tail!.lines.contains { $0.hasPrefix("PATCH") })
                // Back to the first server, which never got the change: its value comes back,
                // and the history says from where.
                let back = try devsync(["pull", "--switch-server"], server: first.url, sandbox: sandbox)
                #expect(back.status == 0 && back.stderr.contains("no change is pending"), "\(back.stderr)")
                let log = try devsync(["log", "CWM-1244-65"], server: first.url, sandbox: sandbox)
                let details = log.lines.map { $0.split(separator: "\t", omittingEmptySubsequences: false).last.map(String.init) ?? "" }
                #expect(details.first == "pull from \(first.url)" && details.contains("attempt 1 to \(second.url)"), "\(log.stdout)")
            }
        }
    }
}
