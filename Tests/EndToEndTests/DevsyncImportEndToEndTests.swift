import Foundation
import Testing
import TestSupport

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

            // The export read back changes nothing, so nothing is recorded.
            let dry = try devsync(["import", "--dry-run", "-"], stdin: export.stdout, server: mockd.url, sandbox: sandbox)
            #expect(dry.status == 0)
            #expect(dry.lines.isEmpty)
            #expect(dry.stderr.contains("dry run: 0 changes would be recorded (88 unchanged); nothing was"))
            let same = try devsync(["import", "-"], stdin: export.stdout, server: mockd.url, sandbox: sandbox)
            #expect(same.status == 0, "\(same.stderr)")
            #expect(same.stderr == "devsync: 0 changes, 88 unchanged\n")
            #expect(try devsync(["pending"], server: mockd.url, sandbox: sandbox).lines.isEmpty)
            #expect(try devsync(["log"], server: mockd.url, sandbox: sandbox).lines.isEmpty)

            // Three rows with new dates among the rest: those three are recorded.
            var lines = export.lines.map(String.init)
            var changed: [String] = []
            for index in [1, 2, 3] {
                var fields = lines[index].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
                fields[1] = fields[1] == "2023-01-02T03:04:05Z" ? "" : "2023-01-02T03:04:05Z"
                changed.append(fields[0])
                lines[index] = fields.joined(separator: ",")
            }
            let edited = lines.joined(separator: "\n") + "\n"
            let imported = try devsync(["import", "-"], stdin: edited, server: mockd.url, sandbox: sandbox)
            #expect(imported.status == 0, "\(imported.stderr)")
            #expect(imported.stderr.contains("3 changes, 85 unchanged recorded; pending sync"))
            let again = try devsync(["export"], server: mockd.url, sandbox: sandbox)
            let values = { (text: String) in text.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).prefix(2).joined(separator: ",") } }
            #expect(values(again.stdout) == values(edited))
            #expect(try devsync(["pending"], server: mockd.url, sandbox: sandbox).lines.map { String($0.split(separator: "\t")[0]) }.sorted()
                    == changed.sorted())
        }
    }

    /// A SIGKILL at any point of an import leaves all of it or none of it: the import is
    /// killed once at each of its SQLite statements in turn (TOOLBOX_TEST_KILL_AT_STATEMENT),
    /// from opening the store to the commit and after, each time on the same store, until a
    /// run has no statement left to be killed at.
    @Test func killedAtEveryStatementOfAnImportLeavesNothingOrEverything() async throws {
        let sandbox = try Sandbox()
        let store = sandbox.root + "/devsync.sqlite"
        let pristine = sandbox.root + "/pristine.sqlite"
        try await withMockd(["--quiet", "--latency", "0", "--failure-rate", "0", "--devices", "2000"], sandbox: sandbox) { mockd in
            func devsync(_ arguments: [String], killAt statement: Int? = nil) throws -> ToolRun {
                var environment = ["DEVSYNC_SERVER": mockd.url, "DEVSYNC_STORE": store]
                if let statement { environment["TOOLBOX_TEST_KILL_AT_STATEMENT"] = String(statement) }
                return try runTool("devsync", arguments, sandbox: sandbox, environment: environment)
            }
            #expect(try devsync(["pull", "-q"]).status == 0)
            // The store with its journal: the pull's last close folds the journal in, but a busy
            // machine can leave it beside the store (durable there), and a copy of the store alone
            // would then hold no device at all.
            let journal = FileManager.default.fileExists(atPath: store + "-wal")
            try FileManager.default.copyItem(atPath: store, toPath: pristine)
            if journal { try FileManager.default.copyItem(atPath: store + "-wal", toPath: pristine + "-wal") }
            var csv = "id,installationDate\n"
            for index in 1...2_000 { csv += "GEN-" + String(format: "%06d", index) + "-00,2024-05-01T08:00:00Z\n" }
            let file = try sandbox.write("block.csv", csv)
            var seen: Set<Int> = []
            for statement in 1...400 {
                for suffix in ["", "-wal", "-shm", "-journal"] { unlink(store + suffix) }
                try FileManager.default.copyItem(atPath: pristine, toPath: store)
                if journal { try FileManager.default.copyItem(atPath: pristine + "-wal", toPath: store + "-wal") }
                let run = try devsync(["import", "-q", file], killAt: statement)
                let pending = try devsync(["pending"]).lines.count
                #expect(pending == 0 || pending == 2_000, "killed at statement \(statement): \(pending) pending")
                seen.insert(pending)
                if !run.signaled {
                    // No statement left to kill at: the import ran whole and recorded everything.
                    #expect(run.status == 0, "\(run.stderr)")
                    #expect(pending == 2_000)
                    break
                }
                #expect(statement < 400, "the import still had statements left at 400")
            }
            // Killed before its commit it left nothing, after it everything.
            #expect(seen == [0, 2_000])
        }
    }
}
