import Foundation
import Testing

/// Tables fit the terminal: at 40, 60, 80 and 120 columns no row of the daily lists wraps
/// (tmux joins wrapped lines with capture-pane -J, so a joined line wider than the pane is one).
@Suite struct TableWidthEndToEndTests {
    @Test(arguments: [40, 60, 80, 120])
    func noRowWraps(columns: Int) async throws {
        let sandbox = try Sandbox()
        try await withMockd(["--quiet", "--latency", "0", "--failure-rate", "0"], sandbox: sandbox) { mockd in
            let env = ["DEVSYNC_SERVER": mockd.url, "BLOGCTL_SERVER": mockd.url, "CONDTEST_SERVER": mockd.url]
            #expect(try runTool("devsync", ["pull", "-q"], sandbox: sandbox, environment: env).status == 0)
            // A pending change with a long error, so LAST ERROR has something to give.
            #expect(try runTool("devsync", ["install", "WWM-0001-12", "HEA-8127-29", "-q"], sandbox: sandbox, environment: env).status == 0)
            #expect(try runTool("devsync", ["sync", "--server", "http://127.0.0.1:9", "--switch-server", "--retries", "0", "-q"], sandbox: sandbox,
                                environment: env).status == 75)
            #expect(try runTool("blogctl", ["prefetch", "-q"], sandbox: sandbox, environment: env).status == 0)
            let commands: [(String, [String], String)] = [
                ("blogctl", ["list"], "DATE"), ("blogctl", ["list", "--group-by", "author"], "DATE"),
                ("blogctl", ["search", "engine"], "TITLE"), ("devsync", ["list"], "INSTALLED"),
                ("devsync", ["pending"], "INSTALLED"), ("devsync", ["log"], "EVENT"), ("condtest", ["list"], "NAME"),
            ]
            for (tool, arguments, header) in commands {
                let tmux = try TmuxSession(command: Binaries.path(tool), arguments: arguments + ["--no-pager"], sandbox: sandbox,
                                           environment: env, columns: columns, rows: 120)
                defer { tmux.kill() }
                _ = try tmux.waitForScreen { $0.contains("EXITED") }
                let screen = try tmux.tmux(["capture-pane", "-p", "-J", "-t", tmux.name])
                let name = "\(tool) \(arguments.joined(separator: " ")) at \(columns)"
                #expect(screen.contains("EXITED 0"), "\(name): \(screen)")
                #expect(screen.contains(header), "\(name): no header")
                if arguments[0] == "search" && columns >= 80 {
                    // The snippet says which field matched, centred on the word.
                    #expect(["body: ", "summary: ", "title: "].contains { screen.contains($0) }, "\(name): \(screen)")
                }
                for line in screen.split(separator: "\n") {
                    #expect(line.count <= columns, "\(name) wraps: \(line)")
                }
            }
        }
    }
}

/// Issue 38, item 7: the answer stays and the name gives way. Issue 47: an id is shown as
/// git shows a hash, the shortest start that tells it apart (here all 24 characters, since
/// the twelve ids share 23), never cut in a way that cannot be typed back.
@Suite struct TableOrderEndToEndTests {
    @Test(arguments: [40, 60, 80])
    func theAnswerStaysAndIdsCanBeTypedBack(columns: Int) async throws {
        let sandbox = try Sandbox()
        try await withMockd(["--quiet", "--latency", "0", "--failure-rate", "0"], sandbox: sandbox) { mockd in
            let env = ["CONDTEST_SERVER": mockd.url]
            for arguments in [["eval", "--all", "rollout.io"], ["list", "--no-pager"]] {
                let tmux = try TmuxSession(command: Binaries.path("condtest"), arguments: arguments, sandbox: sandbox,
                                           environment: env, columns: columns, rows: 40)
                defer { tmux.kill() }
                let screen = try tmux.waitForScreen { $0.contains("EXITED") }
                let rows = screen.split(separator: "\n").filter { $0.hasPrefix("5b8f") }
                #expect(rows.count == 12, "\(arguments) at \(columns): \(screen)")
                #expect(rows.allSatisfy { $0.hasPrefix("5b8f1c3e9d1a4c0012a3b0") && !$0.contains("…b0") }, "\(arguments) at \(columns): \(screen)")
                if arguments[0] == "eval" && columns >= 60 {
                    #expect(rows.allSatisfy { $0.hasSuffix("true") || $0.hasSuffix("false") || $0.contains("error") },
                            "the answer at \(columns): \(screen)")
                }
            }
        }
    }
}
