import Foundation
import Testing
import ToolboxKit

/// `blogctl ui` in a real terminal: tmux runs it at the sizes people use, send-keys types,
/// capture-pane reads what a person would see.
@Suite struct BlogctlUIEndToEndTests {
    func ui(_ server: String, _ sandbox: Sandbox, columns: Int = 80, rows: Int = 24,
            environment: [String: String] = [:]) throws -> TmuxSession {
        try TmuxSession(command: Binaries.path("blogctl"), arguments: ["ui"], sandbox: sandbox,
                        environment: environment.merging(["BLOGCTL_SERVER": server]) { mine, _ in mine },
                        columns: columns, rows: rows)
    }

    /// A $BROWSER that records each URL it is given, one a line.
    func recordingBrowser(_ sandbox: Sandbox) throws -> (browser: String, log: String) {
        let log = sandbox.root + "/browser.log"
        let browser = try sandbox.write("browser", "#!/bin/sh\nfor url in \"$@\"; do echo \"$url\" >> '\(log)'; done\n")
        chmod(browser, 0o755)
        return (browser, log)
    }

    /// The names in the post cache's folder, one string.
    func cachedNames(_ sandbox: Sandbox, _ server: String) -> String {
        ((try? FileManager.default.contentsOfDirectory(atPath: BlogctlEndToEndTests.cacheFolder(sandbox, server))) ?? []).joined(separator: " ")
    }

    @Test(arguments: [(60, 16), (80, 24), (120, 40)])
    func listArrangeReadLinksAndResize(size: (columns: Int, rows: Int)) async throws {
        let sandbox = try Sandbox()
        let recording = try recordingBrowser(sandbox)
        let browser = recording.browser
        let log = recording.log
        try await withMockd(["--quiet", "--latency", "0"], sandbox: sandbox) { mockd in
            let tmux = try ui(mockd.url, sandbox, columns: size.columns, rows: size.rows, environment: ["BROWSER": browser])
            defer { tmux.kill() }
            // The four fields of the newest post, and its unread mark.
            let list = try tmux.waitForScreen { $0.contains("9 posts · 9 unread") }
            let lines = list.split(separator: "\n").map(String.init)
            #expect(lines.allSatisfy { $0.count <= size.columns })
            #expect(lines[1].hasPrefix(" • The Complete") && lines[1].contains("Edsger Dijkstra · 2018-08-30"))
            #expect(lines[2].contains("Every letter, every footnote"))

            // Arrange by author: the sections in order, remembered.
            try tmux.send("o")
            _ = try tmux.waitForScreen { $0.contains("Group by author") && $0.contains("Reverse") }
            try tmux.sendLiteral("group by a")
            try tmux.send("Enter")
            let grouped = try tmux.waitForScreen { $0.contains("posts (by author, date)") }
            #expect(grouped.split(separator: "\n")[1].contains("Ada Lovelace (2)"))
            try tmux.send("G")
            _ = try tmux.waitForScreen { $0.contains("Margaret Hamilton (2)") || $0.contains("Priority Displays") }
            let state = try String(contentsOfFile: sandbox.home + "/.local/state/blogctl/ui.json", encoding: .utf8)
            #expect(state.contains(#""grouping":"author""#))

            // Read Ada's older post: rendered text, then a resize, then its links.
            try tmux.send("g", "j", "Enter")
            _ = try tmux.waitForScreen { $0.contains("has no pretensions whatever") }
            try tmux.resize(columns: size.columns + 20, rows: size.rows + 6)
            let wider = try tmux.waitForScreen { $0.contains("has no pretensions whatever to originate") }
            #expect(wider.split(separator: "\n").allSatisfy { $0.count <= size.columns + 20 })
            try tmux.send("l")
            _ = try tmux.waitForScreen { $0.contains("[1] https://en.wikipedia.org/wiki/Analytical_Engine") }
            try tmux.send("Enter")
            _ = try tmux.waitForScreen { $0.contains("opened https://en.wikipedia.org") }
            #expect(try String(contentsOfFile: log, encoding: .utf8) == "https://en.wikipedia.org/wiki/Analytical_Engine\n")

            try tmux.send("Escape")
            _ = try tmux.waitForScreen { $0.contains("9 posts · 8 unread") }
            try tmux.send("q")
            let after = try tmux.waitForScreen { $0.contains("EXITED 0") }
            #expect(!after.contains("9 posts"))
            let modes = try tmux.terminalModes()
            #expect(modes.contains("icanon") && modes.contains("echo") && !modes.contains("-icanon"))
            // The post read is read for blogctl list too.
            let unread = try runTool("blogctl", ["list", "--unread"], sandbox: sandbox, environment: ["BLOGCTL_SERVER": mockd.url])
            let ids = unread.stdout.split(separator: "\n").map { $0.split(separator: "\t")[0] }
            #expect(ids.count == 8 && !ids.contains("1"), "\(unread.stdout)")
        }
    }

    /// The slow massive post: progress at once, Esc back at once, nothing half-written cached.
    @Test func theMassivePostShowsProgressAndEscStopsIt() async throws {
        let sandbox = try Sandbox()
        try await withMockd(["--quiet", "--latency", "0"], sandbox: sandbox) { mockd in
            // mockd makes the massive post at start-up; a prefetch (which skips it, too large)
            // asks for its size, and so waits until it is made.
            let prefetch = try runTool("blogctl", ["prefetch"], sandbox: sandbox, environment: ["BLOGCTL_SERVER": mockd.url])
            #expect(prefetch.stdout.contains("massive\tskipped"), "\(prefetch.stdout)")
            let tmux = try ui(mockd.url, sandbox)
            defer { tmux.kill() }
            _ = try tmux.waitForScreen { $0.contains("9 posts · 9 unread") }
            try tmux.send("Enter")
            let loading = try tmux.waitForScreen(limit: 1) { $0.contains("downloading") && $0.contains("B of 8.") && $0.contains("B/s") }
            #expect(loading.contains("The Complete Collected Letters"))
            // Keys still work while it loads: the help opens and closes.
            try tmux.send("?")
            _ = try tmux.waitForScreen { $0.contains("reading: keys") }
            try tmux.send("x")
            _ = try tmux.waitForScreen { !$0.contains("reading: keys") && $0.contains("downloading") }
            try tmux.send("Escape")
            _ = try tmux.waitForScreen(limit: 0.5) { $0.contains("9 posts · 8 unread") && !$0.contains("downloading") }
            let names = cachedNames(sandbox, mockd.url)
            #expect(!names.contains("massive"), "\(names)")
            try tmux.send("q")
            _ = try tmux.waitForScreen { $0.contains("EXITED 0") }
        }
    }

    /// Listed and read once online; then, with the server gone, the screen opens from the cache.
    @Test func offlineStartFromTheCache() async throws {
        let sandbox = try Sandbox()
        let server: String
        do {
            let mockd = try await MockdProcess(arguments: ["--quiet", "--latency", "0"], sandbox: sandbox)
            server = mockd.url
            for arguments in [["list"], ["read", "1", "--no-pager"]] {
                let run = try runTool("blogctl", arguments, sandbox: sandbox, environment: ["BLOGCTL_SERVER": server])
                #expect(run.status == 0, "\(run.stderr)")
            }
            _ = mockd.stop()
        }
        let tmux = try ui(server, sandbox, columns: 120, rows: 40)
        defer { tmux.kill() }
        let list = try tmux.waitForScreen { $0.contains("(offline)") && $0.contains("the saved list") }
        #expect(list.contains("9 posts · 8 unread"))
        // A cached post reads normally; an uncached one says it is not cached.
        try tmux.send("G", "Enter")
        _ = try tmux.waitForScreen { $0.contains("has no pretensions whatever") }
        try tmux.send("Escape", "g", "Enter")
        _ = try tmux.waitForScreen { $0.contains("not cached, and the server cannot be reached") }
        try tmux.send("Escape", "/")
        try tmux.sendLiteral("engine")
        try tmux.send("Enter")
        _ = try tmux.waitForScreen { $0.contains("search: engine") && $0.contains("Notes on the Analytical Engine") }
        try tmux.send("Escape", "U")
        _ = try tmux.waitForScreen { $0.contains("unread only") && !$0.contains("Notes on the Analytical Engine") }
        try tmux.send("C-c")
        _ = try tmux.waitForScreen { $0.contains("EXITED 130") }
    }

    /// A cached post opens at once: the server, slow here, is asked only afterwards.
    @Test func aCachedPostDoesNotWaitForASlowServer() async throws {
        let sandbox = try Sandbox()
        try await withMockd(["--quiet", "--latency", "2s"], sandbox: sandbox) { mockd in
            let read = try runTool("blogctl", ["read", "1", "--no-pager"], sandbox: sandbox, environment: ["BLOGCTL_SERVER": mockd.url])
            #expect(read.status == 0, "\(read.stderr)")
            let tmux = try ui(mockd.url, sandbox)
            defer { tmux.kill() }
            _ = try tmux.waitForScreen { $0.contains("9 posts · 8 unread") }
            try tmux.send("G", "Enter")
            _ = try tmux.waitForScreen(limit: 1.5) { $0.contains("has no pretensions whatever") }
            try tmux.send("q", "q")
            _ = try tmux.waitForScreen { $0.contains("EXITED 0") }
        }
    }

    @Test func notATerminalIsOneLineAndExit64() throws {
        let sandbox = try Sandbox()
        let run = try runTool("blogctl", ["ui"], stdin: "", sandbox: sandbox, environment: ["BLOGCTL_SERVER": "http://127.0.0.1:9"])
        #expect(run.status == 64)
        #expect(run.stderr.split(separator: "\n").count == 1)
        #expect(run.stderr.hasPrefix("blogctl: the screen needs a terminal"))
    }
}

/// Issue 47: under a locale that shows only ASCII (`LC_ALL=C`), every other character on a
/// screen is one `?` in one cell, as newsboat shows it, and rows never shift: a wide title
/// and a family emoji take one cell a character, so every row's date stays in its column.
@Suite struct ASCIILocaleEndToEndTests {
    @Test func oneQuestionMarkACharacterAndNoRowShifts() async throws {
        let sandbox = try Sandbox()
        let titles = ["日本語の記事", "Café 👨‍👩‍👧 family", "plain ascii title"]
        let data = try BlogData.write(sandbox.root + "/data", titles.enumerated().map { ("p\($0)", $1, "2018-06-0\($0 + 1)T09:30:00Z") })
        try await withMockd(["--quiet", "--latency", "0", "--data", data], sandbox: sandbox) { mockd in
            let tmux = try TmuxSession(command: Binaries.path("blogctl"), arguments: ["ui"], sandbox: sandbox,
                                       environment: ["BLOGCTL_SERVER": mockd.url, "LC_ALL": "C", "LANG": "C"], columns: 80, rows: 24)
            defer { tmux.kill() }
            let screen = try tmux.waitForScreen { $0.contains("plain ascii title") }
            #expect(!screen.contains("日") && !screen.contains("é") && !screen.contains("👨"), "\(screen)")
            #expect(screen.contains("?????? ") && screen.contains("Caf? ? family"), "\(screen)")
            let rows = screen.split(separator: "\n").filter { $0.contains("2018-06-0") }
            let columns = Set(rows.compactMap { row in row.range(of: "2018-06-0").map { row.distance(from: row.startIndex, to: $0.lowerBound) } })
            #expect(rows.count == 3 && columns.count == 1, "\(screen)")
            // In a UTF-8 locale the same rows, measured as the terminal draws them: the family
            // (one cluster, two columns) leaves every date whole and in its column.
            let utf8 = try TmuxSession(command: Binaries.path("blogctl"), arguments: ["ui"], sandbox: sandbox,
                                       environment: ["BLOGCTL_SERVER": mockd.url, "LC_ALL": "C.UTF-8", "LANG": "C.UTF-8"], columns: 80, rows: 24)
            defer { utf8.kill() }
            let drawn = try utf8.waitForScreen { $0.contains("plain ascii title") }
            let dated = drawn.split(separator: "\n").filter { $0.contains("2018-06-0") }
            let at = Set(dated.compactMap { row in row.range(of: "2018-06-0").map { TextWidth.of(String(row[..<$0.lowerBound])) } })
            #expect(dated.count == 3 && at.count == 1, "\(drawn)")
            #expect(dated.allSatisfy { $0.contains(/2018-06-0\d \d\d:\d\d/) }, "\(drawn)")
            // Whole: ncurses places each emoji of the family in cells of its own (6 columns),
            // and the layout measured it so (it cut "family" to "fa" when it counted 2).
            #expect(drawn.contains("👧 family "), "\(drawn)")
        }
    }
}
