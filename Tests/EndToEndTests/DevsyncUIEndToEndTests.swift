import Foundation
import Testing

/// `devsync ui` in a real terminal against mockd's slow, failing devices API: tmux runs it
/// at the sizes people use, send-keys types, capture-pane reads the screen; the store and
/// mockd's request log say what really happened.
@Suite struct DevsyncUIEndToEndTests {
    static let faults = ["--failure-rate", "0.3", "--latency", "50-150", "--seed", "4"]
    let cli = DevsyncEndToEndTests()

    func ui(_ server: String, _ sandbox: Sandbox, columns: Int = 80, rows: Int = 24) throws -> TmuxSession {
        try TmuxSession(command: Binaries.path("devsync"), arguments: ["ui"], sandbox: sandbox,
                        environment: ["DEVSYNC_SERVER": server], columns: columns, rows: rows)
    }

    /// Opens `id` from the device list: filtered to it, then Enter.
    func open(_ id: String, in tmux: TmuxSession) throws {
        try tmux.send("/")
        try tmux.sendLiteral(id)
        _ = try tmux.waitForScreen { $0.contains("/ " + id) }
        try tmux.send("Enter")
        try tmux.send("Enter")
        _ = try tmux.waitForScreen { $0.contains("devsync › " + id) && $0.contains("history (") }
    }

    /// Back to the list from a detail screen, with the filter cleared.
    func back(in tmux: TmuxSession) throws {
        try tmux.send("Escape")
        _ = try tmux.waitForScreen { $0.contains("devsync › devices") }
        try tmux.send("/")
        try tmux.send("C-u")
        try tmux.send("Enter")
        try tmux.send("g")
        _ = try tmux.waitForScreen { $0.contains("CWM-0012-62") }
    }

    /// Sets the date of `id` on its detail screen: `i`, the text, Enter.
    func setDate(_ text: String, in tmux: TmuxSession) throws {
        try tmux.send("i")
        _ = try tmux.waitForScreen { $0.contains("installed at:") }
        try tmux.send("C-u")
        try tmux.sendLiteral(text)
        try tmux.send("Enter")
    }

    /// Item 9: a change recorded from another terminal shows on the open screen by itself.
    @Test func aChangeAnotherProcessRecordsShowsWithoutAKey() async throws {
        let sandbox = try Sandbox()
        try await withMockd(["--quiet", "--latency", "0"], sandbox: sandbox) { mockd in
            let tmux = try ui(mockd.url, sandbox)
            defer { tmux.kill() }
            _ = try tmux.waitForScreen { $0.contains("pulled 88 devices") && $0.contains("0 pending") }
            let install = try runTool("devsync", ["install", "CWM-0012-62", "--at", "2024-03-04 09:15"], sandbox: sandbox,
                                      environment: ["DEVSYNC_SERVER": mockd.url])
            #expect(install.status == 0)
            // Patched from the store's history (issue 48): the device's row has the date.
            let patched = try tmux.waitForScreen { $0.contains("1 pending") && $0.contains("Sync (1)") }
            #expect(patched.split(separator: "\n").contains { $0.contains("CWM-0012-62") && $0.contains("2024-03-04") }, "\(patched)")
            // Another process syncs it (claims, then the server's answer): patched too.
            let sync = try runTool("devsync", ["sync", "-q"], sandbox: sandbox, environment: ["DEVSYNC_SERVER": mockd.url])
            #expect(sync.status == 0)
            _ = try tmux.waitForScreen { $0.contains("0 pending") && !$0.contains("Sync (1)") }
        }
    }

    @Test(arguments: [(60, 16), (80, 24), (120, 40)])
    func setADateAndSyncUntilTheServerHasIt(size: (columns: Int, rows: Int)) async throws {
        let sandbox = try Sandbox()
        try await withMockd(Self.faults, sandbox: sandbox, tailLog: true) { mockd in
            let tmux = try ui(mockd.url, sandbox, columns: size.columns, rows: size.rows)
            defer { tmux.kill() }
            // A fresh store: the pull at start fills it (R again if the server failed it).
            var list = try tmux.waitForScreen { $0.contains("pulled 88 devices") || $0.contains("(R pulls again)") }
            while !list.contains("88 devices") {
                try tmux.send("R")
                list = try tmux.waitForScreen { $0.contains("pulled 88 devices") || $0.contains("(R pulls again)") }
            }
            #expect(list.split(separator: "\n").allSatisfy { $0.count <= size.columns })
            #expect(list.contains("CWM-0012-62") && list.contains("not installed"))

            try open("CWM-1244-65", in: tmux)
            try setDate("2024-10-01 09:15", in: tmux)
            _ = try tmux.waitForScreen { $0.contains("installed 2024-10-01 09:15; pending sync") && $0.contains("recorded") }
            let pending = try runTool("devsync", ["pending"], sandbox: sandbox, environment: ["DEVSYNC_SERVER": mockd.url])
            #expect(pending.lines.contains { $0.hasPrefix("CWM-1244-65\t") && $0.contains("2024-10-01T09:15:00Z") })

            // A bad date is said where it was typed; nothing is recorded.
            try setDate("2024-02-30", in: tmux)
            _ = try tmux.waitForScreen { $0.contains("invalid date") }
            try tmux.send("Escape")
            try back(in: tmux)
            try open("HEA-8127-29", in: tmux)
            try tmux.send("c")
            _ = try tmux.waitForScreen { $0.contains("HEA-8127-29 not installed; pending sync") }
            try back(in: tmux)
            try tmux.resize(columns: size.columns + 20, rows: size.rows + 6)
            _ = try tmux.waitForScreen { $0.contains("Sync (2)") }

            // Sync until the server holds both; a change the faults kept is sent again with S.
            try tmux.send("Tab")
            _ = try tmux.waitForScreen { $0.contains("devsync › sync") && $0.contains("Sync") }
            // (A capture may come before the screen took the S: then S comes again, which a
            // running sync ignores.)
            for _ in 0..<20 {
                try tmux.send("S")
                let after = try tmux.waitForScreen { ($0.contains(" synced") || $0.contains("kept")) && !$0.contains("Syncing") }
                if after.contains(" 0 pending") { break }
            }
            let screen = try tmux.waitForScreen { $0.contains(" 0 pending") }
            #expect(screen.contains("CWM-1244-65") && screen.contains("synced ✓"))
            let patches = mockd.tail!.lines.filter { $0.hasPrefix("PATCH /devices/") && $0.contains(" 200 ") }
            #expect(patches.contains { $0.hasPrefix("PATCH /devices/CWM-1244-65 ") })
            #expect(patches.contains { $0.hasPrefix("PATCH /devices/HEA-8127-29 ") })
            let server = try await cli.serverDevices(mockd.url)
            #expect(server["CWM-1244-65"] as? String == "2024-10-01T09:15:00Z")
            #expect(server["HEA-8127-29"] is NSNull)
            try tmux.send("Tab")
            _ = try tmux.waitForScreen { $0.contains("devsync › devices") }
            try tmux.send("q")
            _ = try tmux.waitForScreen { $0.contains("EXITED 0") }
        }
    }

    @Test func offlineADateIsRecordedAndSyncKeepsIt() async throws {
        let sandbox = try Sandbox()
        let url = try await withMockd(["--quiet", "--latency", "0", "--failure-rate", "0"], sandbox: sandbox) { mockd throws -> String in
            #expect(try cli.devsync(["pull", "-q"], server: mockd.url, sandbox: sandbox).status == 0)
            return mockd.url
        }
        // mockd is gone: the basement.
        let tmux = try ui(url, sandbox)
        defer { tmux.kill() }
        _ = try tmux.waitForScreen { $0.contains("(offline)") && $0.contains("CWM-0012-62") }
        try open("WWM-0001-12", in: tmux)
        try setDate("2024-05-06T07:08:00Z", in: tmux)
        _ = try tmux.waitForScreen { $0.contains("pending sync") }
        try tmux.send("S")
        let screen = try tmux.waitForScreen { $0.contains("offline: nothing sent, 1 kept for later") }
        // Issue 38, item 3: the reason first, so the row and the line keep it.
        #expect(screen.contains("1 kept for later · connection refused (/devices/"))
        #expect(screen.contains("last error: connection refused"))
        try tmux.send("q")
        _ = try tmux.waitForScreen { $0.contains("devsync › devices") }
        try tmux.send("q")
        _ = try tmux.waitForScreen { $0.contains("EXITED 0") }
        let pending = try cli.devsync(["pending"], server: url, sandbox: sandbox)
        #expect(pending.lines.count == 1)
        #expect(pending.lines.first?.hasPrefix("WWM-0001-12\t") == true)
        #expect(pending.lines.first?.contains("2024-05-06T07:08:00Z") == true)
    }

    @Test func killedDuringAScreenSyncLosesNothing() async throws {
        let sandbox = try Sandbox()
        try await withMockd(["--devices", "50"] + Self.faults, sandbox: sandbox, tailLog: true) { mockd in
            #expect(try cli.devsync(["pull", "--retries", "10", "-q"], server: mockd.url, sandbox: sandbox).status == 0)
            let intent = try cli.recordChanges(50, server: mockd.url, sandbox: sandbox)
            let tmux = try ui(mockd.url, sandbox)
            defer { tmux.kill() }
            _ = try tmux.waitForScreen { $0.contains("50 pending") }
            let isPatch: (String) -> Bool = { $0.hasPrefix("PATCH /devices/") }
            let before = mockd.tail!.lines.filter(isPatch).count
            try tmux.send("S")
            _ = try tmux.waitForScreen { $0.contains("sending") }
            // Mid-sync: some changes through, some in flight, most not started.
            mockd.tail!.wait(for: before + 12, where: isPatch)
            let pid = try #require(try tmux.programPID(named: "devsync"))
            kill(pid, SIGKILL)
            // A killed screen leaves the tty raw (a newline without a carriage return): the
            // shell's "Killed" line ends mid-row, and EXITED may wrap at the pane's edge,
            // wherever the binary's path and the port put it.
            _ = try tmux.waitForScreen { $0.replacingOccurrences(of: "\n", with: "").contains("EXITED 137") }
            let left = try cli.devsync(["pending"], server: mockd.url, sandbox: sandbox).lines.count
            #expect(left > 0 && left < 50)
            let finish = try cli.devsync(["sync", "--wait", "--retries", "3"], server: mockd.url, sandbox: sandbox)
            #expect(finish.status == 0, "\(finish.stderr)")
            let server = try await cli.serverDevices(mockd.url)
            for (id, date) in intent { #expect((server[id] as? String ?? "") == date, "\(id)") }
            #expect(try cli.devsync(["pending"], server: mockd.url, sandbox: sandbox).lines.isEmpty)
        }
    }

    @Test func aConflictIsShownAndResolvedBothWays() async throws {
        let sandbox = try Sandbox()
        try await withMockd(["--quiet", "--latency", "0", "--failure-rate", "0", "--devices-drift", "1", "--seed", "3"],
                            sandbox: sandbox) { mockd in
            #expect(try cli.devsync(["pull", "-q"], server: mockd.url, sandbox: sandbox).status == 0)
            for id in ["CWM-1244-65", "HEA-8127-29"] {
                #expect(try cli.devsync(["install", id, "--at", "2024-12-31T23:00:00Z", "-q"], server: mockd.url, sandbox: sandbox).status == 0)
            }
            // The pull at start finds both changed on the server meanwhile.
            let tmux = try ui(mockd.url, sandbox, columns: 100, rows: 30)
            defer { tmux.kill() }
            // The status and the rows may come in two frames: the screen waited for shows both.
            _ = try tmux.waitForScreen { screen in
                screen.contains("2 conflicts") && screen.contains("with your changes (marked !)")
                    && screen.split(separator: "\n").contains { $0.hasPrefix("! CWM-1244-65") }
            }

            try open("CWM-1244-65", in: tmux)
            _ = try tmux.waitForScreen { $0.contains("the server now has") && $0.contains("m keeps yours") }
            try tmux.send("m")
            _ = try tmux.waitForScreen { $0.contains("your date is kept") && !$0.contains("the server now has") }
            try back(in: tmux)
            try open("HEA-8127-29", in: tmux)
            try tmux.send("t")
            _ = try tmux.waitForScreen { $0.contains("took the server's value") && $0.contains("pending      none") }
            try tmux.send("Escape")
            _ = try tmux.waitForScreen { $0.contains("1 pending") && !$0.contains("conflicts") }
            try tmux.send("q")
            _ = try tmux.waitForScreen { $0.contains("EXITED 0") }

            let pending = try cli.devsync(["pending"], server: mockd.url, sandbox: sandbox).lines
            #expect(pending.count == 1 && pending[0].hasPrefix("CWM-1244-65\t") && pending[0].contains("2024-12-31T23:00:00Z"))
            let kept = try cli.devsync(["log", "CWM-1244-65"], server: mockd.url, sandbox: sandbox).lines
            #expect(kept.first?.contains("\tresolved\t") == true)
            let taken = try cli.devsync(["log", "HEA-8127-29"], server: mockd.url, sandbox: sandbox).lines
            #expect(taken.first?.contains("\tdiscarded\t") == true && taken.first?.contains("took the server's value") == true)
        }
    }

    @Test func notATerminalIsAUsageError() throws {
        let sandbox = try Sandbox()
        let run = try runTool("devsync", ["ui"], sandbox: sandbox, environment: ["DEVSYNC_SERVER": "http://127.0.0.1:9"])
        #expect(run.status == 64)
        #expect(run.stderr.hasPrefix("devsync: ") && run.stderr.split(separator: "\n").count == 1)
    }
}
