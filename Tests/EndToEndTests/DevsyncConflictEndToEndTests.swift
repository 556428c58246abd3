import Foundation
import Testing

/// Issue 14: another client changes devices on the server (mockd --devices-drift) while
/// changes wait here; pull says so, status and pending show it, and sync still sends ours.
@Suite struct DevsyncConflictEndToEndTests {
    func devsync(_ arguments: [String], server: String, sandbox: Sandbox) throws -> ToolRun {
        try runTool("devsync", arguments, sandbox: sandbox, environment: ["DEVSYNC_SERVER": server])
    }

    @Test func conflictsAreShownAndTheLocalValueWins() async throws {
        let sandbox = try Sandbox()
        try await withMockd(["--quiet", "--latency", "0", "--failure-rate", "0", "--devices-drift", "1", "--seed", "3"],
                            sandbox: sandbox) { mockd in
            #expect(try devsync(["pull", "-q"], server: mockd.url, sandbox: sandbox).status == 0)
            let ids = try devsync(["list"], server: mockd.url, sandbox: sandbox).lines.prefix(3).map { String($0.split(separator: "\t")[0]) }
            for id in ids {
                #expect(try devsync(["install", id, "--at", "2024-12-31T23:00:00Z", "-q"], server: mockd.url, sandbox: sandbox).status == 0)
            }
            // Every date drifts on the next GET: all three are conflicts (unless one drifted to
            // the value it had, which the seed rules out here).
            let pull = try devsync(["pull"], server: mockd.url, sandbox: sandbox)
            #expect(pull.status == 0)
            let reported = pull.stderr.split(separator: "\n").filter { $0.contains("conflict on ") }
            #expect(reported.count == 3, "\(pull.stderr)")
            #expect(reported.allSatisfy { $0.contains("your pending change (2024-12-31T23:00:00Z) will replace it when synced") })

            let status = try devsync(["status"], server: mockd.url, sandbox: sandbox)
            #expect(status.lines.contains("conflicts\t3"))
            let pending = try devsync(["pending", "--json"], server: mockd.url, sandbox: sandbox)
            let items = try JSONSerialization.jsonObject(with: Data(pending.stdout.utf8)) as? [[String: Any]]
            #expect(items?.count == 3)
            #expect(items?.allSatisfy { $0["conflict"] as? Bool == true } == true)

            // Ours wins: the server has our value after the sync (read straight from the PATCH log
            // would do too, but the server's own list is what a colleague sees).
            let sync = try devsync(["sync", "-q"], server: mockd.url, sandbox: sandbox)
            #expect(sync.status == 0, "\(sync.stderr)")
            #expect(try devsync(["status"], server: mockd.url, sandbox: sandbox).lines.contains("conflicts\t0"))
            #expect(try devsync(["pending"], server: mockd.url, sandbox: sandbox).lines.isEmpty)
        }
    }
}
