import Foundation
import Testing

/// passcode against mockd: script mode, fetch, credentials, and the real screen in tmux.
@Suite struct PasscodeEndToEndTests {
    let login = ["PASSCODE_USER": "Runloop", "PASSCODE_PASSWORD": "Run!@0p"]

    func passcode(_ arguments: [String], stdin: String? = nil, server: String, sandbox: Sandbox,
                  environment: [String: String]? = nil) throws -> ToolRun {
        try runTool("passcode", arguments, stdin: stdin, sandbox: sandbox,
                    environment: (environment ?? login).merging(["PASSCODE_SERVER": server]) { $1 })
    }

    @Test func scriptModeFromLoadingToUnlockedAndLoadingAgain() async throws {
        let sandbox = try Sandbox()
        try await withMockd(["--quiet", "--passcode-codes", "1234", "--latency", "0-200", "--seed", "3"], sandbox: sandbox) { mockd in
            let run = try passcode([], stdin: "9\n9\n9\n9\n1\n2\n3\n4\n", server: mockd.url, sandbox: sandbox)
            #expect(run.status == 0, "\(run.stderr)")
            let lines = run.lines.map(String.init)
            #expect(lines.first == "loading")
            #expect(lines.count == 11)
            let ready = lines[1].split(separator: " ")
            #expect(ready.first == "ready")
            #expect(Set(ready.dropFirst().compactMap { Int($0) }) == Set(0...9))
            #expect(Array(lines[2...]) == ["progress 1", "progress 2", "progress 3", "rejected",
                                           "progress 1", "progress 2", "progress 3", "unlocked", "loading"])
        }
    }

    @Test func deleteAndCancelInScriptMode() async throws {
        let sandbox = try Sandbox()
        try await withMockd(["--quiet", "--passcode-codes", "1234", "--latency", "0"], sandbox: sandbox) { mockd in
            let run = try passcode(["--script"], stdin: "cancel\ndelete\n1\n2\ndelete\ncancel\n\n", server: mockd.url, sandbox: sandbox)
            #expect(run.status == 0)
            #expect(Array(run.lines.dropFirst(2)) == ["progress 1", "progress 2", "progress 1", "progress 0"])
        }
    }

    @Test func fetchPrintsOneCallAsJSON() async throws {
        let sandbox = try Sandbox()
        try await withMockd(["--quiet", "--passcode-codes", "4321", "--latency", "0-100"], sandbox: sandbox) { mockd in
            let run = try passcode(["fetch"], server: mockd.url, sandbox: sandbox)
            #expect(run.status == 0)
            let object = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
            #expect(object?["code"] as? String == "4321")
            #expect(Set(object?["setup"] as? [Int] ?? []) == Set(0...9))
        }
    }

    @Test func wrongCredentialsAre77MissingOnesSayHowToSetThem() async throws {
        let sandbox = try Sandbox()
        try await withMockd(["--quiet", "--latency", "0"], sandbox: sandbox) { mockd in
            let wrong = try passcode(["fetch"], server: mockd.url, sandbox: sandbox,
                                     environment: ["PASSCODE_USER": "Runloop", "PASSCODE_PASSWORD": "guess"])
            #expect(wrong.status == 77)
            #expect(wrong.stderr == "passcode: credentials refused (\(mockd.url)/getPasscodeInternals)\n")
            let script = try passcode(["--script", "--retries", "1"], stdin: "1\n", server: mockd.url, sandbox: sandbox,
                                      environment: ["PASSCODE_USER": "Runloop", "PASSCODE_PASSWORD": "guess"])
            #expect(script.status == 77)
            #expect(script.lines.contains("error credentials refused (\(mockd.url)/getPasscodeInternals)"))
            let missing = try passcode(["fetch"], server: mockd.url, sandbox: sandbox, environment: ["PASSCODE_USER": "Runloop"])
            #expect(missing.status == 64)
            #expect(missing.stderr.contains("set PASSCODE_PASSWORD or add 'machine 127.0.0.1 login Runloop password"))
        }
    }

    @Test func passwordFromNetrc() async throws {
        let sandbox = try Sandbox()
        _ = try sandbox.write("home/.netrc", "machine 127.0.0.1 login Runloop password Run!@0p\n")
        try await withMockd(["--quiet", "--latency", "0"], sandbox: sandbox) { mockd in
            let run = try passcode(["fetch"], server: mockd.url, sandbox: sandbox, environment: [:])
            #expect(run.status == 0, "\(run.stderr)")
        }
    }

    @Test func serverDownIsAnErrorLineThenExit69() throws {
        let sandbox = try Sandbox()
        let run = try passcode(["--script", "--retries", "2"], stdin: "1\n", server: "http://127.0.0.1:9", sandbox: sandbox)
        #expect(run.status == 69)
        #expect(run.lines.first == "loading")
        #expect(run.lines.filter { $0.hasPrefix("error connection refused (http://127.0.0.1:9") }.count == 3)
    }

    @Test func faultyStreamsAreRetried() async throws {
        let sandbox = try Sandbox()
        try await withMockd(["--quiet", "--passcode-codes", "1234", "--latency", "0-50", "--failure-rate", "0.5", "--seed", "4"],
                            sandbox: sandbox) { mockd in
            let run = try passcode(["--script", "--retries", "20"], stdin: "1\n2\n3\n4\n1\n2\n3\n4\n", server: mockd.url, sandbox: sandbox)
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.lines.filter { $0 == "unlocked" }.count == 2)
            #expect(run.lines.contains { $0.hasPrefix("error ") })
        }
    }

    @Test func theScreenInATerminal() async throws {
        let sandbox = try Sandbox()
        try await withMockd(["--quiet", "--passcode-codes", "1234", "--latency", "0-100"], sandbox: sandbox) { mockd in
            let tmux = try TmuxSession(command: Binaries.path("passcode"), sandbox: sandbox,
                                       environment: login.merging(["PASSCODE_SERVER": mockd.url]) { $1 })
            defer { tmux.kill() }
            // The instruction, four empty circles, and a keypad in the server's order.
            let screen = try tmux.waitForScreen { $0.contains("○  ○  ○  ○") && !$0.contains("loading") && $0.contains("delete") }
            #expect(screen.contains("Please enter your 4 digit code"))
            // Button labels sit between │ bars; the selected one (without colour) between > and <.
            let keypad = screen.split(separator: "\n").filter { $0.contains("│") }.flatMap {
                $0.replacingOccurrences(of: ">", with: "│").replacingOccurrences(of: "<", with: "│").split(separator: "│").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            }
            try #require(keypad.count == 12, "\(screen)")
            #expect(Set(keypad.compactMap { Int($0) }) == Set(0...9))
            #expect(keypad[9] == "cancel" && keypad[11] == "delete")

            try tmux.send("1", "2")
            _ = try tmux.waitForScreen { $0.contains("●  ●  ○  ○") }
            try tmux.send("BSpace")
            _ = try tmux.waitForScreen { $0.contains("●  ○  ○  ○") }
            try tmux.send("Escape")
            _ = try tmux.waitForScreen { $0.contains("○  ○  ○  ○") }
            // A mouse click on the bottom-middle button presses its digit.
            try tmux.sendLiteral("\u{1B}[<0;40;15M")
            _ = try tmux.waitForScreen { $0.contains("●  ○  ○  ○") }
            try tmux.send("Escape", "1", "2", "3", "4")
            _ = try tmux.waitForScreen { $0.contains("unlocked") }
            try tmux.send("q")
            let after = try tmux.waitForScreen { $0.contains("EXITED 0") }
            // The normal screen is back: no keypad, and the shell's line shows the exit status.
            #expect(!after.contains("Please enter your 4 digit code"))
            let modes = try tmux.terminalModes()
            #expect(modes.contains("icanon") && modes.contains("echo") && !modes.contains("-icanon"))
        }
    }

    /// Issue 11: q quits with 0, Ctrl-C with 130, as after any interrupt; both restore the terminal.
    @Test func ctrlCOnTheScreenExits130() async throws {
        let sandbox = try Sandbox()
        try await withMockd(["--quiet", "--latency", "0"], sandbox: sandbox) { mockd in
            let tmux = try TmuxSession(command: Binaries.path("passcode"), sandbox: sandbox,
                                       environment: login.merging(["PASSCODE_SERVER": mockd.url]) { $1 })
            defer { tmux.kill() }
            _ = try tmux.waitForScreen { $0.contains("○  ○  ○  ○") && $0.contains("delete") }
            try tmux.send("C-c")
            let after = try tmux.waitForScreen { $0.contains("EXITED 130") }
            #expect(!after.contains("Please enter your 4 digit code"))
            let modes = try tmux.terminalModes()
            #expect(modes.contains("icanon") && modes.contains("echo") && !modes.contains("-icanon"))
        }
    }
}
