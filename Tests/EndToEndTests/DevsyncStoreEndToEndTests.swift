import Foundation
import Synchronization
import Testing
import TestSupport

/// The store as processes meet it: many first uses at once, and a store this user may only read.
@Suite struct DevsyncStoreEndToEndTests {
    @Test func concurrentFirstUsesAllSucceed() async throws {
        let sandbox = try Sandbox()
        try await withMockd(["--quiet", "--latency", "0", "--failure-rate", "0"], sandbox: sandbox) { mockd in
            for round in 0..<5 {
                let store = sandbox.root + "/store-\(round)/devsync.sqlite"
                let group = DispatchGroup()
                let collected = Mutex<[ToolRun]>([])
                for _ in 0..<6 {
                    group.enter()
                    Thread.detachNewThread {
                        let run = try? runTool("devsync", ["pull", "--store", store], sandbox: sandbox, environment: ["DEVSYNC_SERVER": mockd.url])
                        if let run { collected.withLock { $0.append(run) } }
                        group.leave()
                    }
                }
                group.wait()
                let runs = collected.withLock { $0 }
                #expect(runs.count == 6)
                for run in runs { #expect(run.status == 0, "\(run.stderr)") }
            }
        }
    }

    /// Issue 16: a store written by release 0.1.0 (on GRDB) lists exactly as 0.1.0 listed it.
    @Test func aStoreOfRelease010ListsAsItDid() throws {
        let sandbox = try Sandbox()
        let fixtures = String(#filePath[..<#filePath.lastIndex(of: "/")!]) + "/../DevsyncKitTests/Fixtures/"
        let store = sandbox.root + "/old/devsync.sqlite"
        try FileManager.default.createDirectory(atPath: sandbox.root + "/old", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: fixtures + "store-0.1.0.sqlite", toPath: store)
        for command in ["list", "pending"] {
            let run = try runTool("devsync", [command, "--json", "--store", store], sandbox: sandbox)
            #expect(run.status == 0, "\(run.stderr)")
            // Every key and value 0.1.0 printed is printed still (later versions add keys).
            let expected = try String(contentsOfFile: fixtures + "store-0.1.0.\(command).json", encoding: .utf8)
            let old = try #require(try JSONSerialization.jsonObject(with: Data(expected.utf8)) as? [[String: Any]])
            let new = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
            #expect(new.count == old.count, "devsync \(command) --json")
            for (before, now) in zip(old, new) {
                for (key, value) in before {
                    #expect(now[key].map { "\($0)" } == "\(value)", "devsync \(command) --json: \(key) of \(before["id"] ?? "")")
                }
            }
        }
    }

    @Test(.enabled(if: geteuid() == 0, "needs root to run devsync as another user"))
    func aStoreThisUserCannotWriteCanStillBeRead() async throws {
        let sandbox = try Sandbox()
        try await withMockd(["--quiet", "--latency", "0", "--failure-rate", "0"], sandbox: sandbox) { mockd in
            let store = sandbox.root + "/shared/devsync.sqlite"
            let pull = try runTool("devsync", ["pull", "--store", store], sandbox: sandbox, environment: ["DEVSYNC_SERVER": mockd.url])
            #expect(pull.status == 0, "\(pull.stderr)")
            // Another user may enter and read, not write (and pass through the tests' own folder).
            chmod(TemporaryFolders.root, 0o711)
            for folder in [sandbox.root, sandbox.root + "/shared"] { chmod(folder, 0o755) }
            for file in (try FileManager.default.contentsOfDirectory(atPath: sandbox.root + "/shared")) {
                chmod(sandbox.root + "/shared/" + file, 0o644)
            }
            let asNobody = ["--reuid=65534", "--regid=65534", "--clear-groups", Binaries.path("devsync")]
            let list = try runTool("/usr/bin/setpriv", asNobody + ["list", "--store", store], sandbox: sandbox,
                                   environment: ["DEVSYNC_SERVER": mockd.url])
            #expect(list.status == 0, "\(list.stderr)")
            #expect(!list.lines.isEmpty)
            let id = String(list.lines.first?.split(separator: "\t").first ?? "")
            let install = try runTool("/usr/bin/setpriv", asNobody + ["install", id, "--store", store], sandbox: sandbox,
                                      environment: ["DEVSYNC_SERVER": mockd.url])
            #expect(install.status == 74, "\(install.stderr)")
            #expect(install.stderr.contains("read-only"), "\(install.stderr)")
        }
    }

    /// Issue 10: a stored date that cannot be read was sent as "not installed" and counted as synced.
    @Test func aDamagedChangeIsReportedAndNeverSent() async throws {
        let sandbox = try Sandbox()
        try await withMockd(["--latency", "0", "--failure-rate", "0"], sandbox: sandbox, tailLog: true) { mockd in
            let store = sandbox.root + "/s/devsync.sqlite"
            let environment = ["DEVSYNC_SERVER": mockd.url]
            #expect(try runTool("devsync", ["pull", "--store", store], sandbox: sandbox, environment: environment).status == 0)
            let list = try runTool("devsync", ["list", "--store", store], sandbox: sandbox, environment: environment)
            let ids = list.lines.prefix(2).map { String($0.split(separator: "\t")[0]) }
            try #require(ids.count == 2)
            for id in ids {
                #expect(try runTool("devsync", ["install", id, "--at", "2024-03-04 10:15", "--store", store], sandbox: sandbox,
                                    environment: environment).status == 0)
            }
            let damage = "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); "
                + "c.execute(\"UPDATE change SET installationDate = 'garbage' WHERE deviceID = ?\", (sys.argv[2],)); c.commit()"
            #expect(try runTool("/usr/bin/env", ["python3", "-c", damage, store, ids[0]], sandbox: sandbox).status == 0)
            let sync = try runTool("devsync", ["sync", "--store", store], sandbox: sandbox, environment: environment)
            #expect(sync.status == 65, "\(sync.stderr)")
            #expect(sync.stderr.contains("the change to \(ids[0]) cannot be read from the store and was not sent"), "\(sync.stderr)")
            mockd.tail?.wait(for: 1) { $0.hasPrefix("PATCH /devices/") }
            let patches = mockd.log.split(separator: "\n").filter { $0.hasPrefix("PATCH /devices/") }
            #expect(patches.count == 1 && patches[0].contains(ids[1]), "\(patches)")
            let pending = try runTool("devsync", ["pending", "--store", store], sandbox: sandbox, environment: environment)
            #expect(pending.stdout.contains(ids[0]), "kept for the user: \(pending.stdout)")
            // Counted apart in status (issue 46).
            let status = try runTool("devsync", ["status", "--store", store], sandbox: sandbox, environment: environment)
            #expect(status.lines.contains("damaged\t1"), "\(status.stdout)")
        }
    }
}
