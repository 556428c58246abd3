import Foundation
import Testing
import TestSupport

/// `condtest ui` in a real terminal: tmux runs it at the sizes people use, send-keys types,
/// capture-pane reads what a person would see.
@Suite struct CondtestUIEndToEndTests {
    static let equalsID = "5b8f1c3e9d1a4c0012a3b001"

    func ui(_ mockd: MockdProcess, _ sandbox: Sandbox, arguments: [String] = [], columns: Int = 80, rows: Int = 24,
            environment: [String: String] = [:]) throws -> TmuxSession {
        try TmuxSession(command: Binaries.path("condtest"), arguments: ["ui"] + arguments, sandbox: sandbox,
                        environment: environment.merging(["CONDTEST_SERVER": mockd.url]) { mine, _ in mine },
                        columns: columns, rows: rows)
    }

    @Test(arguments: [(60, 16), (80, 24), (120, 40)])
    func listFilterTestExplainAppendAndQuit(size: (columns: Int, rows: Int)) async throws {
        let sandbox = try Sandbox()
        try await withMockd(["--quiet", "--latency", "0"], sandbox: sandbox) { mockd in
            let cases = sandbox.root + "/rollout.cases"
            let tmux = try ui(mockd, sandbox, arguments: ["--cases", cases], columns: size.columns, rows: size.rows)
            defer { tmux.kill() }
            // The main screen: names only, the count in the status line.
            let list = try tmux.waitForScreen { $0.contains("Domain is rollout.io") && $0.contains("12 conditions") }
            #expect(!list.contains(Self.equalsID))
            #expect(list.split(separator: "\n").allSatisfy { $0.count <= size.columns })
            try tmux.send("/")
            try tmux.sendLiteral("rollout")
            _ = try tmux.waitForScreen { $0.contains("of 12 conditions") && $0.contains("/ rollout") }
            try tmux.send("Enter", "Enter")
            _ = try tmux.waitForScreen { $0.contains("arg1") && $0.contains(#"eq(arg1, "rollout.io")"#) }

            // The result follows the typing and matches condtest eval.
            try tmux.sendLiteral("rollout.io")
            _ = try tmux.waitForScreen { $0.contains("result: true") }
            #expect(try runTool("condtest", ["eval", Self.equalsID, "rollout.io"], sandbox: sandbox,
                                environment: ["CONDTEST_SERVER": mockd.url]).status == 0)
            try tmux.send("BSpace")
            _ = try tmux.waitForScreen { $0.contains("result: false") }
            #expect(try runTool("condtest", ["eval", Self.equalsID, "rollout.i"], sandbox: sandbox,
                                environment: ["CONDTEST_SERVER": mockd.url]).status == 1)
            try tmux.send("Enter")
            _ = try tmux.waitForScreen { $0.contains("explain:") && $0.contains(#"eq(arg1 = "rollout.i", "rollout.io"): false"#) }

            // A resize in the middle lays the screen out again.
            try tmux.resize(columns: size.columns + 20, rows: size.rows + 6)
            try tmux.sendLiteral("o")
            _ = try tmux.waitForScreen { $0.contains("result: true") && $0.contains("[ Test ]") }

            // On the button, a appends the case; condtest test then passes it.
            try tmux.send("Tab")
            try tmux.send("a")
            _ = try tmux.waitForScreen { $0.contains("appended:") }
            try tmux.send("Escape")
            _ = try tmux.waitForScreen { $0.contains("Domain is rollout.io") && !$0.contains("arg1") }
            try tmux.send("q")
            let after = try tmux.waitForScreen { $0.contains("EXITED 0") }
            #expect(!after.contains("12 conditions"))
            let modes = try tmux.terminalModes()
            #expect(modes.contains("icanon") && modes.contains("echo") && !modes.contains("-icanon"))
            let written = try String(contentsOfFile: cases, encoding: .utf8)
            #expect(written == "\(Self.equalsID)\ttrue\trollout.io\n")
            let test = try runTool("condtest", ["test", cases], sandbox: sandbox, environment: ["CONDTEST_SERVER": mockd.url])
            #expect(test.status == 0, "\(test.stdout)\(test.stderr)")
        }
    }

    @Test func ctrlCExits130AndRestoresTheTerminal() async throws {
        let sandbox = try Sandbox()
        try await withMockd(["--quiet", "--latency", "0"], sandbox: sandbox) { mockd in
            let tmux = try ui(mockd, sandbox)
            defer { tmux.kill() }
            _ = try tmux.waitForScreen { $0.contains("12 conditions") }
            try tmux.send("Enter")
            _ = try tmux.waitForScreen { $0.contains("[ Test ]") }
            try tmux.send("C-c")
            let after = try tmux.waitForScreen { $0.contains("EXITED 130") }
            #expect(!after.contains("[ Test ]"))
            let modes = try tmux.terminalModes()
            #expect(modes.contains("icanon") && modes.contains("echo") && !modes.contains("-icanon"))
        }
    }

    /// SIGTERM and SIGHUP restore the terminal too, and exit 128 + the signal.
    @Test(arguments: [("TERM", 143), ("HUP", 129)])
    func signalsRestoreTheTerminal(signal: (name: String, status: Int)) async throws {
        let sandbox = try Sandbox()
        try await withMockd(["--quiet", "--latency", "0"], sandbox: sandbox) { mockd in
            let tmux = try ui(mockd, sandbox)
            defer { tmux.kill() }
            _ = try tmux.waitForScreen { $0.contains("12 conditions") }
            let pid = try #require(try tmux.programPID(named: "condtest"))
            kill(pid, signal.name == "TERM" ? SIGTERM : SIGHUP)
            let after = try tmux.waitForScreen { $0.contains("EXITED \(signal.status)") }
            #expect(!after.contains("12 conditions"))
            let modes = try tmux.terminalModes()
            #expect(modes.contains("icanon") && modes.contains("echo") && !modes.contains("-icanon"))
        }
    }

    /// TOOLBOX_UI_TRACE: one line a frame, `MS CAUSE… DURATION_MS`.
    @Test func theTraceHasALineForEachFrame() async throws {
        let sandbox = try Sandbox()
        let trace = sandbox.root + "/trace"
        try await withMockd(["--quiet", "--latency", "0"], sandbox: sandbox) { mockd in
            let tmux = try ui(mockd, sandbox, environment: ["TOOLBOX_UI_TRACE": trace])
            defer { tmux.kill() }
            _ = try tmux.waitForScreen { $0.contains("12 conditions") }
            try tmux.send("j", "Enter")
            _ = try tmux.waitForScreen { $0.contains("[ Test ]") && $0.contains("arg1") }
            try tmux.send("C-c")
            _ = try tmux.waitForScreen { $0.contains("EXITED 130") }
        }
        let lines = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n").map(String.init)
        let pattern = /^[0-9]+\.[0-9] (start|key [^ ]+|data|resize|tick)( (key [^ ]+|data|resize|tick))* [0-9]+\.[0-9]{3}$/
        #expect(lines.allSatisfy { $0.wholeMatch(of: pattern) != nil }, "\(lines)")
        #expect(lines.first?.split(separator: " ").dropFirst().first == "start")
        #expect(lines.contains { $0.contains(" key j ") })
        #expect(lines.contains { $0.contains(" key Enter ") })
        #expect(lines.filter { $0.contains(" data ") }.count >= 2, "the list and the condition arrived")
    }

    /// A case appended just before quitting is in the file when the tool has exited: a clean
    /// exit waits for the work queued in order (issue 38).
    @Test func aCaseAppendedAsTheScreenQuitsIsWritten() async throws {
        let sandbox = try Sandbox()
        try await withMockd(["--quiet", "--latency", "0"], sandbox: sandbox) { mockd in
            let cases = sandbox.root + "/rollout.cases"
            let tmux = try ui(mockd, sandbox, arguments: ["--cases", cases])
            defer { tmux.kill() }
            _ = try tmux.waitForScreen { $0.contains("12 conditions") }
            try tmux.send("/")
            try tmux.sendLiteral("rollout")
            try tmux.send("Enter", "Enter")
            _ = try tmux.waitForScreen { $0.contains("arg1") }
            try tmux.sendLiteral("rollout.io")
            _ = try tmux.waitForScreen { $0.contains("result: true") }
            // a, then q twice (back to the list, quit) in one write: no frame in between.
            try tmux.send("Tab", "a", "q", "q")
            _ = try tmux.waitForScreen { $0.contains("EXITED 0") }
            #expect(try String(contentsOfFile: cases, encoding: .utf8) == "\(Self.equalsID)\ttrue\trollout.io\n")
        }
    }

    @Test func aConditionTheServerCannotGiveShowsItsErrorAndOfflineRRetries() async throws {
        let sandbox = try Sandbox()
        let tmux: TmuxSession
        let port: Int
        do {
            let mockd = try await MockdProcess(arguments: ["--quiet", "--latency", "0"], sandbox: sandbox)
            port = try #require(mockd.url.split(separator: ":").last.flatMap { Int($0) })
            tmux = try ui(mockd, sandbox)
            _ = try tmux.waitForScreen { $0.contains("12 conditions") }
            _ = mockd.stop()
        }
        let held = HeldPort(port)
        defer { tmux.kill() }
        try tmux.send("r")
        _ = try tmux.waitForScreen { $0.contains("(offline)") && $0.contains("connection refused") }
        try tmux.send("Enter")
        // The reason first (issue 38, item 3), the request after it.
        _ = try tmux.waitForScreen { $0.contains("error: connection refused (/conditions/") && $0.contains("r reload · Esc back") }
        try tmux.send("Escape", "j")
        _ = try tmux.waitForScreen { !$0.contains("error: connection refused") && $0.contains("(offline)") }
        // Back online on the same port, r reloads.
        held.release()
        let again = try await MockdProcess(arguments: ["--quiet", "--latency", "0", "--port", String(port)], sandbox: sandbox)
        defer { _ = again.stop() }
        try tmux.send("r")
        _ = try tmux.waitForScreen { !$0.contains("(offline)") && $0.contains("12 conditions") }
    }

    @Test func noColorLeavesNoColourAttribute() async throws {
        let sandbox = try Sandbox()
        try await withMockd(["--quiet", "--latency", "0"], sandbox: sandbox) { mockd in
            for noColor in [false, true] {
                let tmux = try ui(mockd, sandbox, environment: noColor ? ["NO_COLOR": "1"] : [:])
                defer { tmux.kill() }
                _ = try tmux.waitForScreen { $0.contains("12 conditions") }
                try tmux.send("Enter")
                _ = try tmux.waitForScreen { $0.contains("[ Test ]") }
                try tmux.sendLiteral("rollout.io")
                _ = try tmux.waitForScreen { $0.contains("result: true") }
                let styled = try tmux.captureWithAttributes()
                let colours = ["[32m", ";32m", "[31m", ";31m", "38;5;"].filter { styled.contains($0) }
                if noColor {
                    #expect(colours.isEmpty, "\(styled)")
                    #expect(styled.contains("[7m") || styled.contains(";7m"), "reverse stays")
                } else {
                    #expect(!colours.isEmpty, "the result is green with colour: \(styled)")
                }
            }
        }
    }

    @Test func notATerminalIsOneLineAndExit64() throws {
        let sandbox = try Sandbox()
        let run = try runTool("condtest", ["ui"], stdin: "", sandbox: sandbox, environment: ["CONDTEST_SERVER": "http://127.0.0.1:9"])
        #expect(run.status == 64)
        #expect(run.stderr.split(separator: "\n").count == 1)
        #expect(run.stderr.hasPrefix("condtest: the screen needs a terminal"))
        #expect(run.stdout.isEmpty)
    }
}
