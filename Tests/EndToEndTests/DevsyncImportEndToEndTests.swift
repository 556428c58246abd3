import Foundation
import Testing

/// Issue 14: `devsync export` and `devsync import`, as a user runs them.
@Suite struct DevsyncImportEndToEndTests {
    func devsync(_ arguments: [String], stdin: String? = nil, server: String, sandbox: Sandbox) throws -> ToolRun {
        try runTool("devsync", arguments, stdin: stdin, sandbox: sandbox, environment: ["DEVSYNC_SERVER": server])
    }

    @Test func exportImportsBackAndABadFileRecordsNothing() async throws {
        let sandbox = try Sandbox()
        try await withMockd(["--quiet", "--latency", "0", "--failure-rate", "0"], sandbox: sandbox) { mockd in
            #expect(try devsync(["pull", "-q"], server: mockd.url, sandbox: sandbox).status == 0)
            let export = try devsync(["export"], server: mockd.url, sandbox: sandbox)
            #expect(export.status == 0)
            #expect(export.lines.first == "id,installationDate,state,type,meterPointDescription")
            #expect(export.lines.count == 89)

            let bad = "id,installationDate\nCWM-1244-65,2024-02-30 10:00\nNOPE,\n"
            let refused = try devsync(["import", "-"], stdin: bad, server: mockd.url, sandbox: sandbox)
            #expect(refused.status == 65)
            #expect(refused.stderr.contains("stdin: line 2, column 13: invalid date"))
            #expect(refused.stderr.contains("stdin: line 3, column 1: unknown device \"NOPE\""))
            #expect(try devsync(["pending"], server: mockd.url, sandbox: sandbox).lines.isEmpty)

            let dry = try devsync(["import", "--dry-run", "-"], stdin: export.stdout, server: mockd.url, sandbox: sandbox)
            #expect(dry.status == 0)
            #expect(dry.lines.count == 88)
            #expect(try devsync(["pending"], server: mockd.url, sandbox: sandbox).lines.isEmpty)

            let imported = try devsync(["import", "-"], stdin: export.stdout, server: mockd.url, sandbox: sandbox)
            #expect(imported.status == 0, "\(imported.stderr)")
            #expect(imported.stderr.contains("88 changes recorded"))
            // The same values, now pending; exported again, they read the same.
            let again = try devsync(["export"], server: mockd.url, sandbox: sandbox)
            let values = { (text: String) in text.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).prefix(2).joined(separator: ",") } }
            #expect(values(again.stdout) == values(export.stdout))
            #expect(try devsync(["pending"], server: mockd.url, sandbox: sandbox).lines.count == 88)
        }
    }

    /// A SIGKILL at any point of a 10,000-row import leaves all of it or none of it.
    @Test func killedDuringAnImportLeavesNothingOrEverything() async throws {
        let sandbox = try Sandbox()
        try await withMockd(["--quiet", "--latency", "0", "--failure-rate", "0", "--devices", "10000"], sandbox: sandbox) { mockd in
            #expect(try devsync(["pull", "-q"], server: mockd.url, sandbox: sandbox).status == 0)
            var csv = "id,installationDate\n"
            for index in 1...10_000 { csv += "GEN-" + String(format: "%06d", index) + "-00,2024-05-01T08:00:00Z\n" }
            let file = try sandbox.write("block.csv", csv)
            var generator = SystemRandomNumberGenerator()
            for round in 0..<6 {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: Binaries.path("devsync"))
                process.arguments = ["import", "-q", file]
                process.environment = sandbox.environment.merging(["DEVSYNC_SERVER": mockd.url]) { $1 }
                try process.run()
                watch(process)
                // A kill point anywhere from start-up to the commit (not a timing assertion).
                usleep(UInt32.random(in: 0...(round == 5 ? 400_000 : 150_000), using: &generator))
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
                let pending = try devsync(["pending"], server: mockd.url, sandbox: sandbox).lines.count
                #expect(pending == 0 || pending == 10_000, "round \(round): \(pending)")
                if pending == 10_000 { break }  // Later rounds would only replace what is there.
            }
            // And an import left alone records them all, in one go.
            let whole = try devsync(["import", file], server: mockd.url, sandbox: sandbox)
            #expect(whole.status == 0, "\(whole.stderr)")
            #expect(try devsync(["pending"], server: mockd.url, sandbox: sandbox).lines.count == 10_000)
        }
    }
}
