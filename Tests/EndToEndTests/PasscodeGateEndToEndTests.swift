import Foundation
import Testing
import TestSupport

/// Issue 15: `passcode --once` as a gate, in a real terminal (tmux) and in script mode:
/// 0 unlocked, 1 cancelled, 130 Ctrl-C, 124 idle, the server's status when giving up.
@Suite struct PasscodeGateEndToEndTests {
    let login = ["PASSCODE_USER": "Runloop", "PASSCODE_PASSWORD": "Run!@0p"]

    /// One terminal per sandbox: a tmux server of its own.
    func gate(_ arguments: [String], mockd: MockdProcess, sandbox: Sandbox) throws -> TmuxSession {
        try TmuxSession(command: Binaries.path("passcode"), arguments: arguments, sandbox: sandbox,
                        environment: login.merging(["PASSCODE_SERVER": mockd.url]) { $1 })
    }

    func ready(_ tmux: TmuxSession) throws {
        _ = try tmux.waitForScreen { $0.contains("○  ○  ○  ○") && !$0.contains("loading") && $0.contains("delete") }
    }

    @Test func theFirstUnlockExitsZeroAndLeavesNothingBehind() async throws {
        let sandbox = try Sandbox()
        try await withMockd(["--quiet", "--passcode-codes", "1234", "--latency", "0"], sandbox: sandbox) { mockd in
            let tmux = try gate(["--once"], mockd: mockd, sandbox: sandbox)
            defer { tmux.kill() }
            try ready(tmux)
            // A wrong code is rejected and the gate stays; the right one ends it.
            try tmux.send("9", "9", "9", "9")
            _ = try tmux.waitForScreen { $0.contains("rejected") || $0.contains("○  ○  ○  ○") }
            try ready(tmux)
            try tmux.send("1", "2", "3", "4")
            let after = try tmux.waitForScreen { $0.contains("EXITED") }
            #expect(after.contains("EXITED 0"), "\(after)")
            // Nothing printed: the pane holds only the status line.
            #expect(after.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty } == ["EXITED 0"], "\(after)")
        }
    }

    @Test func qAndEscapeOnAnEmptyCodeRefuseWithOne() async throws {
        let sandbox = try Sandbox()
        try await withMockd(["--quiet", "--passcode-codes", "1234", "--latency", "0-100"], sandbox: sandbox) { mockd in
            let quit = try gate(["--once"], mockd: mockd, sandbox: sandbox)
            defer { quit.kill() }
            try ready(quit)
            try quit.send("q")
            #expect(try quit.waitForScreen { $0.contains("EXITED") }.contains("EXITED 1"))

            let escape = try gate(["--once"], mockd: mockd, sandbox: sandbox)
            defer { escape.kill() }
            try ready(escape)
            try escape.send("Escape")
            let end = try escape.waitForScreen { $0.contains("EXITED") }
            #expect(end.contains("EXITED 1"), "\(end)")
        }
    }

    @Test func ctrlCIs130AndAnIdleScreenEndsWith124() async throws {
        let sandbox = try Sandbox()
        try await withMockd(["--quiet", "--latency", "0"], sandbox: sandbox) { mockd in
            let interrupted = try gate(["--once"], mockd: mockd, sandbox: sandbox)
            defer { interrupted.kill() }
            try ready(interrupted)
            try interrupted.send("C-c")
            #expect(try interrupted.waitForScreen { $0.contains("EXITED") }.contains("EXITED 130"))

            let idle = try gate(["--once", "--idle-timeout", "1"], mockd: mockd, sandbox: sandbox)
            defer { idle.kill() }
            let after = try idle.waitForScreen { $0.contains("EXITED") }
            #expect(after.contains("passcode: no key for 1 s: timed out") && after.contains("EXITED 124"), "\(after)")
            let modes = try idle.terminalModes()
            #expect(modes.contains("icanon") && modes.contains("echo") && !modes.contains("-icanon"))
        }
    }

    @Test func withoutOnceQStillQuitsWithZero() async throws {
        let sandbox = try Sandbox()
        try await withMockd(["--quiet", "--latency", "0"], sandbox: sandbox) { mockd in
            let tmux = try gate([], mockd: mockd, sandbox: sandbox)
            defer { tmux.kill() }
            try ready(tmux)
            try tmux.send("q")
            #expect(try tmux.waitForScreen { $0.contains("EXITED") }.contains("EXITED 0"))
        }
    }

    @Test func scriptModeHasTheSameStatusesAndPrintsNothing() async throws {
        let sandbox = try Sandbox()
        func run(_ arguments: [String], _ stdin: String, _ server: String) throws -> ToolRun {
            try runTool("passcode", arguments, stdin: stdin, sandbox: sandbox,
                        environment: login.merging(["PASSCODE_SERVER": server]) { $1 })
        }
        try await withMockd(["--quiet", "--passcode-codes", "1234", "--latency", "0"], sandbox: sandbox) { mockd in
            let unlocked = try run(["--once"], "9\n9\n9\n9\n1\n2\n3\n4\n5\n", mockd.url)
            #expect(unlocked.status == 0 && unlocked.stdout.isEmpty && unlocked.stderr.isEmpty, "\(unlocked)")
            let cancelled = try run(["--once"], "7\ncancel\ncancel\n1\n2\n3\n4\n", mockd.url)
            #expect(cancelled.status == 1 && cancelled.stdout.isEmpty)
            let ended = try run(["--once"], "1\n2\n", mockd.url)
            #expect(ended.status == 1)
            // Without --once, the end of the input is the end of the run: 0, as before.
            let plain = try run([], "1\n2\n", mockd.url)
            #expect(plain.status == 0 && plain.stdout.hasPrefix("loading\nready "))
        }
        try await withMockd(["--quiet", "--failure-rate", "1", "--latency", "0"], sandbox: sandbox) { mockd in
            let down = try run(["--once", "--retries", "1"], "1\n", mockd.url)
            #expect(down.status == 69, "\(down.stderr)")
            #expect(down.stderr.contains("HTTP 500"))
        }
    }
}

/// Issue 38, item 4: refused credentials end a script at once (77, one line), even while its
/// input stays open; they never wait for the input to end.
@Suite struct RefusedScriptEndToEndTests {
    @Test func refusedCredentialsEndTheScriptAtOnce() async throws {
        let sandbox = try Sandbox()
        try await withMockd(["--quiet", "--latency", "0", "--failure-rate", "0"], sandbox: sandbox) { mockd in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: Binaries.path("passcode"))
            process.arguments = ["--once", "--script"]
            process.environment = sandbox.environment.merging(["PASSCODE_SERVER": mockd.url, "PASSCODE_USER": "u",
                                                               "PASSCODE_PASSWORD": "wrong"]) { _, new in new }
            let input = Pipe(), errors = Pipe()
            process.standardInput = input
            process.standardOutput = FileHandle.nullDevice
            process.standardError = errors
            try process.run()
            watch(process, limit: 60)
            // The input is held open: the answer cannot come from its end.
            process.waitUntilExit()
            try input.fileHandleForWriting.close()
            let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            #expect(process.terminationStatus == 77, "\(stderr)")
            #expect(stderr == "passcode: credentials refused (\(mockd.url)/getPasscodeInternals)\n")
        }
    }
}
