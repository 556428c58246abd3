import Foundation
import Testing

@Suite struct MockdEndToEndTests {
    @Test func listensOnAFreePortAndAnswersHealth() async throws {
        let sandbox = try Sandbox()
        try await withMockd(sandbox: sandbox) { mockd in
            #expect(mockd.url.hasPrefix("http://127.0.0.1:"))
            #expect(!mockd.url.hasSuffix(":0"))
            let response = try await fetch(mockd.url, "/health")
            #expect(response.status == 200)
            #expect(response.text == #"{"status":"ok"}"#)
        }
    }

    @Test func logsOneLinePerRequestUnlessQuiet() async throws {
        let sandbox = try Sandbox()
        let log = try await withMockd(sandbox: sandbox) { mockd in
            _ = try await fetch(mockd.url, "/health")
            _ = try await fetch(mockd.url, "/nope")
            mockd.stop()
            return mockd.log
        }
        let lines = log.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.first?.hasPrefix("GET /health 200 ") == true)
        #expect(lines.last?.hasPrefix("GET /nope 404 ") == true)
        #expect(lines.allSatisfy { $0.hasSuffix("ms") })

        let quiet = try await withMockd(["--quiet"], sandbox: sandbox) { mockd in
            _ = try await fetch(mockd.url, "/health")
            mockd.stop()
            return mockd.log
        }
        #expect(quiet.isEmpty)
    }

    @Test func sigtermShutsDownWithStatusZero() async throws {
        let sandbox = try Sandbox()
        let mockd = try await MockdProcess(arguments: ["--quiet"], sandbox: sandbox)
        #expect(try await fetch(mockd.url, "/health").status == 200)
        #expect(mockd.stop() == 0)
        #expect(mockd.process.terminationReason == .exit)
    }

    @Test func sigintShutsDownWithStatusZero() async throws {
        let sandbox = try Sandbox()
        let mockd = try await MockdProcess(arguments: ["--quiet"], sandbox: sandbox)
        mockd.process.interrupt()
        mockd.process.waitUntilExit()
        #expect(mockd.process.terminationStatus == 0)
        #expect(mockd.process.terminationReason == .exit)
    }

    @Test func badFlagsAreUsageErrors() throws {
        let sandbox = try Sandbox()
        for arguments in [["--latency", "fast"], ["--failure-rate", "2"], ["--port", "70000"]] {
            let run = try runTool("mockd", arguments, sandbox: sandbox)
            #expect(run.status == 64, "\(arguments)")
            #expect(run.stdout.isEmpty)
        }
    }

    @Test func versionAndHelp() throws {
        let sandbox = try Sandbox()
        let version = try runTool("mockd", ["--version"], sandbox: sandbox)
        #expect(version.status == 0)
        #expect(version.stdout.hasPrefix("mockd "))
        // X.Y.Z, then +N.gHASH between tags (scripts/version.sh; VersionEndToEndTests checks the value).
        let release = version.stdout.dropFirst(6).split(separator: "+").first ?? ""
        #expect(release.split(separator: ".").count == 3)
        let help = try runTool("mockd", ["--help"], sandbox: sandbox)
        #expect(help.stdout.contains("--failure-rate"))
        #expect(help.stdout.contains("Examples:"))
    }
}
