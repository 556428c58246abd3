import Foundation
import Testing
import TestSupport

/// The small things a daily user trips over (issue 28, item 8), each checked as they would meet it.
@Suite struct PapercutEndToEndTests {
    @Test func markChecksIdsAndMarksAllAndListWorksOffline() async throws {
        let sandbox = try Sandbox()
        let url = try await withMockd(["--quiet", "--latency", "0", "--failure-rate", "0"], sandbox: sandbox) { mockd throws -> String in
            let env = ["BLOGCTL_SERVER": mockd.url]
            let list = try runTool("blogctl", ["list"], sandbox: sandbox, environment: env)
            #expect(list.status == 0)
            let missing = try runTool("blogctl", ["mark", "1", "99"], sandbox: sandbox, environment: env)
            #expect(missing.status == 66)
            #expect(missing.stderr == "blogctl: no post 99 in the list blogctl list saved; nothing was marked\n")
            #expect(try runTool("blogctl", ["list", "--unread"], sandbox: sandbox, environment: env).lines.count == list.lines.count)
            #expect(try runTool("blogctl", ["mark", "--all", "3"], sandbox: sandbox, environment: env).status == 64)
            let all = try runTool("blogctl", ["mark", "--all"], sandbox: sandbox, environment: env)
            #expect(all.status == 0 && all.stderr == "blogctl: marked \(list.lines.count) posts read\n")
            #expect(try runTool("blogctl", ["list", "--unread"], sandbox: sandbox, environment: env).lines.isEmpty)
            return mockd.url
        }
        // The server gone: the saved list, filtered as usual.
        let offline = try runTool("blogctl", ["list", "--offline", "--author", "ada"], sandbox: sandbox, environment: ["BLOGCTL_SERVER": url])
        #expect(offline.status == 0, "\(offline.stderr)")
        #expect(!offline.lines.isEmpty && offline.lines.allSatisfy { $0.lowercased().contains("ada") })
        let online = try runTool("blogctl", ["list"], sandbox: sandbox, environment: ["BLOGCTL_SERVER": url])
        #expect(online.status == 69)
        #expect(!online.stderr.contains("mockd"))

        let fresh = try Sandbox()
        let none = try runTool("blogctl", ["list", "--offline"], sandbox: fresh)
        #expect(none.status == 66 && none.stderr == "blogctl: no saved list to show offline: blogctl list (online) saves one\n")
    }

    @Test func devsyncListBeforeAPullSaysWhatToDo() throws {
        let sandbox = try Sandbox()
        let list = try runTool("devsync", ["list"], sandbox: sandbox)
        #expect(list.status == 0)
        #expect(list.stdout.isEmpty)
        #expect(list.stderr == "devsync: no devices in the store yet: devsync pull fetches them from the server\n")
        #expect(try runTool("devsync", ["list", "--json"], sandbox: sandbox).stdout.filter { !$0.isWhitespace } == "[]")
    }
}

/// condtest takes the start of an id, as git takes a short hash, and suggests ids on a miss.
@Suite struct ConditionPrefixEndToEndTests {
    @Test func aShortIdWorksAndAMissSuggests() async throws {
        let sandbox = try Sandbox()
        try await withMockd(["--quiet", "--latency", "0", "--failure-rate", "0"], sandbox: sandbox) { mockd in
            let env = ["CONDTEST_SERVER": mockd.url]
            let full = try runTool("condtest", ["show", "5b8f1c3e9d1a4c0012a3b001"], sandbox: sandbox, environment: env)
            let ids = try runTool("condtest", ["list"], sandbox: sandbox, environment: env).lines.map { String($0.split(separator: "\t")[0]) }
            // The shortest start of the first id that no other id shares.
            let first = ids[0]
            let short = (1...first.count).map { String(first.prefix($0)) }.first { prefix in ids.filter { $0.hasPrefix(prefix) }.count == 1 }!
            let shown = try runTool("condtest", ["show", short], sandbox: sandbox, environment: env)
            #expect(shown.status == 0, "\(shown.stderr)")
            #expect(shown.stdout == (try runTool("condtest", ["show", first], sandbox: sandbox, environment: env)).stdout)
            #expect(full.status == 0)
            let ambiguous = try runTool("condtest", ["eval", "5b8f", "x"], sandbox: sandbox, environment: env)
            #expect(ambiguous.status == 64 && ambiguous.stderr.contains("ambiguous id \"5b8f\""))
            let miss = try runTool("condtest", ["show", "5b8f1c3e9d1a4c0012a3b0ff"], sandbox: sandbox, environment: env)
            #expect(miss.status == 66 && miss.stderr.contains("did you mean 5b8f1c3e9d1a4c0012a3b0"))
        }
    }
}

/// passcode: a refused password is said once and not retried (a 4xx never is).
@Suite struct PasscodeRefusedEndToEndTests {
    @Test func aRefusedPasswordIsOneRequestAndOneLine() async throws {
        let sandbox = try Sandbox()
        try await withMockd(["--latency", "0", "--failure-rate", "0"], sandbox: sandbox, tailLog: true) { mockd in
            let environment = ["PASSCODE_USER": "Runloop", "PASSCODE_PASSWORD": "wrong", "PASSCODE_SERVER": mockd.url]
            let before = mockd.tail!.lines.count { $0.hasPrefix("POST /getPasscodeInternals") }
            let run = try runTool("passcode", ["--once"], stdin: "1\n", sandbox: sandbox, environment: environment)
            #expect(run.status == 77)
            #expect(run.stderr == "passcode: credentials refused (\(mockd.url)/getPasscodeInternals)\n")
            let after = mockd.tail!.wait(for: before + 1) { $0.hasPrefix("POST /getPasscodeInternals") }
            #expect(after == before + 1)
            // No server: the one line, 69.
            let down = try runTool("passcode", ["--once"], stdin: "1\n", sandbox: sandbox,
                                   environment: environment.merging(["PASSCODE_SERVER": "http://127.0.0.1:9"]) { $1 })
            #expect(down.status == 69 && down.stderr.split(separator: "\n").count == 1)
        }
    }
}

/// Issue 38: a mistyped command is answered as git and gh answer it.
@Suite struct DidYouMeanEndToEndTests {
    @Test func aMistypedCommandNamesTheNearestOnes() throws {
        let sandbox = try Sandbox()
        for (tool, arguments, expected) in [
            ("blogctl", ["lst"], "blogctl: unknown command \"lst\" for blogctl; did you mean \"list\"? (see 'blogctl --help')\n"),
            ("devsync", ["--server", "http://127.0.0.1:9", "pul"], "devsync: unknown command \"pul\" for devsync; did you mean \"pull\"? (see 'devsync --help')\n"),
            ("condtest", ["shw", "1"], "condtest: unknown command \"shw\" for condtest; did you mean \"show\"? (see 'condtest --help')\n"),
            ("blogctl", ["cache", "lst"], "blogctl: unknown command \"lst\" for blogctl cache; did you mean \"list\"? (see 'blogctl cache --help')\n"),
        ] {
            let run = try runTool(tool, arguments, sandbox: sandbox)
            #expect(run.status == 64 && run.stderr == expected, "\(tool) \(arguments): \(run.stderr)")
        }
        // Nothing near: the parser's own words, cleaned, said as our own errors (issue 47).
        let far = try runTool("blogctl", ["xyzzy"], sandbox: sandbox)
        #expect(far.status == 64 && far.stderr.hasPrefix("blogctl: unexpected argument 'xyzzy'\n"), "\(far.stderr)")
        // `--no-pager` is taken by every command, where git would take it too.
        for (tool, arguments) in [("devsync", ["status", "--no-pager"]), ("devsync", ["--no-pager", "pending"]), ("condtest", ["fmt", "--no-pager", "-"])] {
            let run = try runTool(tool, arguments, stdin: "startsWith(arg1, \"ro\")\n", sandbox: sandbox)
            #expect(run.status == 0, "\(tool) \(arguments): \(run.stderr)")
        }
        for tool in ["condtest", "passcode", "blogctl", "devsync", "mockd"] {
            let bogus = try runTool(tool, ["--bogus"], sandbox: sandbox)
            #expect(bogus.status == 64 && bogus.stderr.hasPrefix("\(tool): unknown option '--bogus'"), "\(tool): \(bogus.stderr)")
            #expect(!bogus.stderr.contains(". Did you mean"), "\(tool): \(bogus.stderr)")
            #expect(!bogus.stderr.contains("Error:"), "\(tool): \(bogus.stderr)")
        }
    }
}

/// Issue 38: a command that waits on the network shows a spinner on a terminal after a
/// second, as gh does, and clears it; piped, nothing (every test that reads stderr whole).
@Suite struct WaitSpinnerEndToEndTests {
    @Test func aSlowServerGetsASpinnerThatCtrlCClears() throws {
        let sandbox = try Sandbox()
        // A server that never answers (it listens, and accepts nothing): the spinner stays until
        // Ctrl-C, however late this test gets to look. A server answering after 8 s let a test
        // starved under load see the list instead.
        let silent = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(silent) }
        guard let port = bindLoopback(silent), listen(silent, 16) == 0 else { throw HarnessError("cannot listen") }
        let url = "http://127.0.0.1:\(port)"
        let tmux = try TmuxSession(command: Binaries.path("condtest"), arguments: ["list", "--no-pager", "--timeout", "900"], sandbox: sandbox,
                                   environment: ["CONDTEST_SERVER": url], columns: 80, rows: 10)
        defer { tmux.kill() }
        let waiting = try tmux.waitForScreen { $0.contains("waiting for \(url)") }
        #expect(waiting.contains("waiting for \(url)"))
        try tmux.send("C-c")
        let after = try tmux.waitForScreen { $0.contains("EXITED") }
        #expect(after.contains("EXITED 130") && !after.contains("waiting for"), "\(after)")
    }
}

/// Issue 38, item 11: Ctrl-Z suspends a screen and `fg` draws it again, as in less and tig.
@Suite struct SuspendEndToEndTests {
    @Test func ctrlZSuspendsAndFgRedraws() async throws {
        let sandbox = try Sandbox()
        try await withMockd(["--quiet", "--latency", "0", "--failure-rate", "0"], sandbox: sandbox) { mockd in
            let shell = try TmuxSession(command: "/usr/bin/env", arguments: ["bash", "--norc", "--noprofile"], sandbox: sandbox,
                                        environment: ["PATH": Binaries.directory + ":/usr/bin:/bin", "PS1": "$ ", "CONDTEST_SERVER": mockd.url],
                                        columns: 80, rows: 24)
            defer { shell.kill() }
            try shell.sendLiteral("condtest ui")
            try shell.send("Enter")
            _ = try shell.waitForScreen { $0.contains("12 conditions") && $0.contains("? help") }
            try shell.send("C-z")
            let stopped = try shell.waitForScreen { $0.contains("Stopped") }
            #expect(stopped.contains("Stopped") && !stopped.contains("? help"))
            try shell.sendLiteral("fg")
            try shell.send("Enter")
            let back = try shell.waitForScreen { $0.contains("12 conditions") && $0.contains("? help") }
            #expect(back.contains("Domain is rollout.io"))
            try shell.send("q")
            _ = try shell.waitForScreen { !$0.contains("? help") && $0.contains("$ ") }
            try shell.sendLiteral("echo status $?")
            try shell.send("Enter")
            let status = try shell.waitForScreen { $0.contains("status 0") }
            #expect(status.contains("status 0"))
        }
    }
}

/// Issue 47: a screen on a terminal that cannot move the cursor is refused in one line, 64,
/// for every tool's screen; and passcode's screen, after refused credentials, ends with their
/// status (77) when quit, as script mode does, not 0.
@Suite struct ScreenRefusalEndToEndTests {
    @Test func aDumbTerminalGetsOneLine() throws {
        let sandbox = try Sandbox()
        for (tool, arguments) in [("condtest", ["ui"]), ("blogctl", ["ui"]), ("devsync", ["ui"]), ("passcode", [String]())] {
            let tmux = try TmuxSession(command: Binaries.path(tool), arguments: arguments, sandbox: sandbox,
                                       environment: ["TERM": "dumb", "PASSCODE_USER": "Runloop", "PASSCODE_PASSWORD": "x"], columns: 100, rows: 10)
            defer { tmux.kill() }
            let screen = try tmux.waitForScreen { $0.contains("EXITED") }
            #expect(screen.contains("\(tool): cannot start the screen: the terminal \"dumb\" cannot move the cursor"), "\(tool): \(screen)")
            #expect(screen.contains("EXITED 64"), "\(tool): \(screen)")
        }
    }

    @Test func quittingPasscodesScreenAfterRefusedCredentialsIs77() async throws {
        let sandbox = try Sandbox()
        try await withMockd(["--quiet", "--latency", "0", "--failure-rate", "0"], sandbox: sandbox) { mockd in
            let tmux = try TmuxSession(command: Binaries.path("passcode"), sandbox: sandbox,
                                       environment: ["PASSCODE_USER": "Runloop", "PASSCODE_PASSWORD": "wrong", "PASSCODE_SERVER": mockd.url])
            defer { tmux.kill() }
            let refused = try tmux.waitForScreen { $0.contains("credentials refused") }
            #expect(refused.contains("credentials refused"), "\(refused)")
            try tmux.send("q")
            let after = try tmux.waitForScreen { $0.contains("EXITED") }
            #expect(after.contains("EXITED 77"), "\(after)")
        }
    }
}
