import Foundation
import Testing

/// install, uninstall and discard take several ids (as blogctl mark does), all or none;
/// discard --all drops every change.
@Suite struct DevsyncBatchEndToEndTests {
    let cli = DevsyncEndToEndTests()

    @Test func severalIdsAreRecordedOrDiscardedTogether() async throws {
        let sandbox = try Sandbox()
        try await withMockd(["--quiet", "--latency", "0", "--failure-rate", "0"], sandbox: sandbox) { mockd in
            func devsync(_ arguments: [String]) throws -> ToolRun { try cli.devsync(arguments, server: mockd.url, sandbox: sandbox) }
            func pending() throws -> [String] { try devsync(["pending"]).lines.map { String($0.split(separator: "\t")[0]) }.sorted() }
            #expect(try devsync(["pull", "-q"]).status == 0)
            let ids = ["CWM-0012-62", "CWM-1244-65", "HEA-8127-29"]
            let install = try devsync(["install"] + ids + ["--at", "2024-10-01T08:00:00Z"])
            #expect(install.status == 0)
            #expect(install.stderr == "devsync: 3 devices installed \(DateDisplayForTests.human("2024-10-01T08:00:00Z")); pending sync\n")
            #expect(try pending() == ids)
            #expect(try devsync(["pending"]).lines.allSatisfy { $0.contains("2024-10-01T08:00:00Z") })

            // One unknown id: nothing is recorded.
            let refused = try devsync(["install", "CWM-0012-62", "NOPE", "--at", "2025-01-01T00:00:00Z"])
            #expect(refused.status == 66)
            #expect(refused.stderr.contains("no device NOPE"))
            #expect(try devsync(["pending"]).lines.allSatisfy { $0.contains("2024-10-01T08:00:00Z") })

            #expect(try devsync(["uninstall", "CWM-1244-65", "HEA-8127-29", "-q"]).status == 0)
            #expect(try devsync(["show", "HEA-8127-29"]).lines.contains("installed\t"))

            let half = try devsync(["discard", "CWM-0012-62", "WWM-0001-12", "--yes"])
            #expect(half.status == 66)
            #expect(half.stderr == "devsync: no local change for WWM-0001-12; nothing was discarded\n")
            #expect(try pending().count == 3)
            #expect(try devsync(["discard", "CWM-0012-62", "CWM-1244-65", "--yes"]).stderr == "devsync: discarded 2 changes\n")
            #expect(try pending() == ["HEA-8127-29"])
            #expect(try devsync(["discard", "--all", "--yes"]).status == 0)
            #expect(try pending().isEmpty)
            #expect(try devsync(["discard", "--all", "--yes"]).stderr == "devsync: no local changes to discard\n")
            #expect(try devsync(["discard", "--yes"]).status == 64)
            #expect(try devsync(["discard", "--all", "CWM-0012-62"]).status == 64)
            #expect(try devsync(["install"]).status == 64)
        }
    }
}

/// Local time as the tools print it, for a test's expectations (TZ is UTC in the sandbox).
enum DateDisplayForTests {
    static func human(_ iso: String) -> String {
        String(iso.prefix(10)) + " " + String(iso.dropFirst(11).prefix(5))
    }
}
