import Foundation
import Testing
import ToolboxKit
import TestSupport

/// devsync against mockd with seeded faults, as an installer's phone would meet the server.
@Suite struct DevsyncEndToEndTests {
    func devsync(_ arguments: [String], server: String, sandbox: Sandbox) throws -> ToolRun {
        try runTool("devsync", arguments, sandbox: sandbox, environment: ["DEVSYNC_SERVER": server])
    }

    /// The server's devices, read until a request gets through the injected failures.
    func serverDevices(_ url: String) async throws -> [String: Any] {
        for _ in 0..<50 {
            let response = try? await fetch(url, "/devices")
            if let response, response.status == 200 {
                let list = try JSONSerialization.jsonObject(with: response.data) as! [[String: Any]]
                return Dictionary(uniqueKeysWithValues: list.map { ($0["id"] as! String, $0["installationDate"] ?? NSNull()) })
            }
        }
        throw HarnessError("the server never answered GET /devices")
    }

    /// The local intent: every device's installation date as `devsync list` prints it.
    func localIntent(_ server: String, _ sandbox: Sandbox) throws -> [String: String] {
        let run = try devsync(["list"], server: server, sandbox: sandbox)
        #expect(run.status == 0)
        return Dictionary(uniqueKeysWithValues: run.lines.map {
            let fields = $0.split(separator: "\t", omittingEmptySubsequences: false)
            return (String(fields[0]), String(fields[3]))
        })
    }

    func expectServerMatches(_ url: String, _ sandbox: Sandbox) async throws {
        let server = try await serverDevices(url)
        let local = try localIntent(url, sandbox)
        #expect(local.count == server.count)
        for (id, date) in local {
            let remote = server[id] as? String ?? ""
            #expect(remote == date, "\(id): server \(remote), local \(date)")
        }
    }

    /// Records changes on the generated devices: installs with dates, some uninstalls.
    func recordChanges(_ count: Int, server: String, sandbox: Sandbox) throws -> [String: String] {
        var intent: [String: String] = [:]
        for index in 1...count {
            let id = "GEN-" + String(format: "%06d", index) + "-00"
            if index % 7 == 0 {
                #expect(try devsync(["install", id, "--at", "2024-05-01T08:00:00Z", "-q"], server: server, sandbox: sandbox).status == 0)
                #expect(try devsync(["uninstall", id, "-q"], server: server, sandbox: sandbox).status == 0)
                intent[id] = ""
            } else {
                let date = String(format: "2024-06-%02dT%02d:%02d:00Z", index % 28 + 1, index % 24, index % 60)
                #expect(try devsync(["install", id, "--at", date, "-q"], server: server, sandbox: sandbox).status == 0)
                intent[id] = date
            }
        }
        return intent
    }

    @Test func twoHundredChangesThroughThirtyPercentFailures() async throws {
        let sandbox = try Sandbox()
        try await withMockd(["--quiet", "--devices", "200", "--failure-rate", "0.3", "--latency", "0-50", "--seed", "11"],
                            sandbox: sandbox) { mockd in
            #expect(try devsync(["pull", "--retries", "10"], server: mockd.url, sandbox: sandbox).status == 0)
            let intent = try recordChanges(200, server: mockd.url, sandbox: sandbox)
            let pending = try devsync(["pending"], server: mockd.url, sandbox: sandbox)
            #expect(pending.lines.count == 200)
            let sync = try devsync(["sync", "--wait", "--jobs", "8", "--retries", "3"], server: mockd.url, sandbox: sandbox)
            #expect(sync.status == 0, "\(sync.stderr)")
            #expect(try devsync(["pending"], server: mockd.url, sandbox: sandbox).stdout.isEmpty)
            try await expectServerMatches(mockd.url, sandbox)
            let server = try await serverDevices(mockd.url)
            for (id, date) in intent { #expect((server[id] as? String ?? "") == date, "\(id)") }
        }
    }

    @Test func killedAgainAndAgainLosesNothing() async throws {
        let sandbox = try Sandbox()
        try await withMockd(["--devices", "60", "--failure-rate", "0.3", "--latency", "0-30", "--seed", "5"],
                            sandbox: sandbox, tailLog: true) { mockd in
            #expect(try devsync(["pull", "--retries", "10"], server: mockd.url, sandbox: sandbox).status == 0)
            let intent = try recordChanges(60, server: mockd.url, sandbox: sandbox)
            var generator = SeededGenerator(seed: 2024)
            let isPatch: (String) -> Bool = { $0.hasPrefix("PATCH /devices/") }
            for _ in 0..<8 {
                // Kill after a seeded number of requests reached the server, mid-flight.
                let before = mockd.tail!.lines.filter(isPatch).count
                let target = before + 1 + Int(generator.next() % 12)
                let process = try startTool("devsync", ["sync", "--jobs", "4", "--retries", "1", "-q"], sandbox: sandbox,
                                            environment: ["DEVSYNC_SERVER": mockd.url])
                mockd.tail!.wait(for: target, where: isPatch)
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
            }
            let finish = try devsync(["sync", "--wait", "--retries", "3"], server: mockd.url, sandbox: sandbox)
            #expect(finish.status == 0, "\(finish.stderr)")
            let server = try await serverDevices(mockd.url)
            for (id, date) in intent { #expect((server[id] as? String ?? "") == date, "\(id)") }
            try await expectServerMatches(mockd.url, sandbox)
        }
    }

    @Test func offlineInstallWorksAndSyncKeepsEverything() async throws {
        let sandbox = try Sandbox()
        let url = try await withMockd(["--quiet", "--latency", "0", "--failure-rate", "0"], sandbox: sandbox) { mockd throws -> String in
            let pull = try devsync(["pull"], server: mockd.url, sandbox: sandbox)
            #expect(pull.status == 0)
            return mockd.url
        }
        // mockd is gone now: the basement (its port held, refusing).
        let held = HeldPort(url: url)
        defer { withExtendedLifetime(held) {} }
        let install = try devsync(["install", "WWM-0001-12", "--at", "2024-05-06T07:08:00Z"], server: url, sandbox: sandbox)
        #expect(install.status == 0)
        #expect(try devsync(["uninstall", "HEA-8127-29"], server: url, sandbox: sandbox).status == 0)
        let sync = try devsync(["sync", "--retries", "1"], server: url, sandbox: sandbox)
        #expect(sync.status == 75)
        #expect(sync.stderr.contains("2 kept for later"))
        #expect(sync.stderr.contains("connection refused"))
        let pending = try devsync(["pending"], server: url, sandbox: sandbox)
        #expect(pending.lines.count == 2)
        #expect(pending.lines.allSatisfy { $0.contains("\tpending\t") && $0.contains("connection refused") })
        let list = try devsync(["list", "--pending"], server: url, sandbox: sandbox)
        #expect(list.lines.contains("WWM-0001-12\twarm_water\tKitchen\t2024-05-06T07:08:00Z\tpending"))
    }

    @Test func aRejectedChangeIsKeptAndShown() async throws {
        let sandbox = try Sandbox()
        try await withMockd(["--quiet", "--latency", "0", "--failure-rate", "0"], sandbox: sandbox) { mockd in
            #expect(try devsync(["pull"], server: mockd.url, sandbox: sandbox).status == 0)
            // The server renames a device behind our back: our change to the old id is refused.
            #expect(try await fetch(mockd.url, "/devices/CWM-0012-62", method: "PATCH", body: #"{"id":"CWM-0012-99"}"#).status == 200)
            #expect(try devsync(["install", "CWM-0012-62", "--at", "2024-01-02T03:04:05Z"], server: mockd.url, sandbox: sandbox).status == 0)
            #expect(try devsync(["install", "WWM-0001-12", "--at", "2024-01-02T03:04:05Z"], server: mockd.url, sandbox: sandbox).status == 0)
            let sync = try devsync(["sync"], server: mockd.url, sandbox: sandbox)
            #expect(sync.status == 65)
            #expect(sync.stderr.contains("1 rejected"))
            let show = try devsync(["show", "CWM-0012-62"], server: mockd.url, sandbox: sandbox)
            #expect(show.stdout.contains("state\trejected"))
            #expect(show.stdout.contains("last error\tBad Request: unknown device CWM-0012-62"))
            // Discarding it resolves it; scripts must say --yes.
            #expect(try devsync(["discard", "CWM-0012-62"], server: mockd.url, sandbox: sandbox).status == 64)
            #expect(try devsync(["discard", "CWM-0012-62", "--yes"], server: mockd.url, sandbox: sandbox).status == 0)
            #expect(try devsync(["pending"], server: mockd.url, sandbox: sandbox).stdout.isEmpty)
        }
    }

    @Test func twoSyncsAtOnceNeverSendAChangeTwice() async throws {
        let sandbox = try Sandbox()
        try await withMockd(["--devices", "80", "--failure-rate", "0", "--latency", "0-20", "--seed", "9"],
                            sandbox: sandbox, tailLog: true) { mockd in
            #expect(try devsync(["pull"], server: mockd.url, sandbox: sandbox).status == 0)
            let intent = try recordChanges(80, server: mockd.url, sandbox: sandbox)
            let processes = try (0..<2).map { _ -> Process in
                try startTool("devsync", ["sync", "--wait", "--jobs", "4", "-q"], sandbox: sandbox,
                              environment: ["DEVSYNC_SERVER": mockd.url])
            }
            for process in processes {
                process.waitUntilExit()
                #expect(process.terminationStatus == 0)
            }
            // With no failures, every change reached the server exactly once.
            let patches = mockd.tail!.lines.filter { $0.hasPrefix("PATCH /devices/") && $0.contains(" 200 ") }
            let perDevice = Dictionary(grouping: patches, by: { $0.split(separator: " ")[1] })
            #expect(perDevice.count == 80)
            #expect(perDevice.values.allSatisfy { $0.count == 1 })
            let server = try await serverDevices(mockd.url)
            for (id, date) in intent { #expect((server[id] as? String ?? "") == date, "\(id)") }
        }
    }

    @Test func badInputIsRefusedClearly() async throws {
        let sandbox = try Sandbox()
        try await withMockd(["--quiet", "--latency", "0", "--failure-rate", "0"], sandbox: sandbox) { mockd in
            #expect(try devsync(["pull"], server: mockd.url, sandbox: sandbox).status == 0)
            let date = try devsync(["install", "WWM-0001-12", "--at", "soon"], server: mockd.url, sandbox: sandbox)
            #expect(date.status == 64)
            #expect(date.stderr.hasPrefix("devsync: invalid date \"soon\""))
            let unknown = try devsync(["install", "NOPE-0000-00"], server: mockd.url, sandbox: sandbox)
            #expect(unknown.status == 66)
            #expect(unknown.stderr == "devsync: no device NOPE-0000-00 in the local store; devsync pull refreshes the list\n")
            // Ids are opaque: looked up as they are, and not found.
            let traversal = try devsync(["show", "../../etc/passwd"], server: mockd.url, sandbox: sandbox)
            #expect(traversal.status == 66)
            // A type a newer server may send is a valid filter.
            let type = try devsync(["list", "--type", "gas"], server: mockd.url, sandbox: sandbox)
            #expect(type.status == 0 && type.stdout.isEmpty)
            let empty = try devsync(["show", ""], server: mockd.url, sandbox: sandbox)
            #expect(empty.status == 64)
            // Issue 47: the start of an id, as git takes a short hash; several: which ones.
            let short = try devsync(["show", "CWM-124"], server: mockd.url, sandbox: sandbox)
            #expect(short.status == 0 && short.lines.contains("id\tCWM-1244-65"), "\(short.stderr)")
            let ambiguous = try devsync(["show", "CWM-2"], server: mockd.url, sandbox: sandbox)
            #expect(ambiguous.status == 64 && ambiguous.stderr.hasPrefix("devsync: ambiguous id \"CWM-2\": 5 devices start with it (CWM-2214-65, "),
                    "\(ambiguous.stderr)")
        }
    }

    @Test func aForeignStoreIsRefused() throws {
        let sandbox = try Sandbox()
        let path = try sandbox.write("notes.sqlite", "this is not SQLite at all, just text that is long enough to have a header")
        let run = try runTool("devsync", ["list", "--store", path], sandbox: sandbox)
        #expect(run.status == 74)
        #expect(run.stderr.hasPrefix("devsync: \(path): "))
    }
}
