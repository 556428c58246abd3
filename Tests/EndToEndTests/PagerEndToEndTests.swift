import Foundation
import Testing

/// Lists page as git's do: on a terminal, a list taller than the screen goes through $PAGER;
/// a short one, --no-pager, PAGER=cat and a pipe print it.
@Suite struct PagerEndToEndTests {
    @Test func aTallListGoesThroughThePagerAndTheRestIsPrinted() async throws {
        let sandbox = try Sandbox()
        try await withMockd(["--quiet", "--latency", "0", "--failure-rate", "0"], sandbox: sandbox) { mockd in
            #expect(try runTool("devsync", ["pull", "-q"], sandbox: sandbox, environment: ["DEVSYNC_SERVER": mockd.url]).status == 0)
            let paged = sandbox.root + "/paged"
            // A pager that keeps what it was given.
            let recorder = "cat > '\(paged)'"
            func run(_ arguments: [String], pager: String) throws -> String {
                let tmux = try TmuxSession(command: Binaries.path("devsync"), arguments: arguments, sandbox: sandbox,
                                           environment: ["PAGER": pager], columns: 100, rows: 20)
                defer { tmux.kill() }
                return try tmux.waitForScreen { $0.contains("EXITED") }
            }
            // 88 devices on 20 rows: paged, every line, the table as on a terminal.
            let screen = try run(["list"], pager: recorder)
            #expect(screen.contains("EXITED 0") && !screen.contains("CWM-0012-62"))
            let lines = try String(contentsOfFile: paged, encoding: .utf8).split(separator: "\n")
            #expect(lines.count == 89 && lines[0].contains("ID") && lines[0].contains("METER POINT"))
            try FileManager.default.removeItem(atPath: paged)

            // Short: printed. --no-pager and PAGER=cat: printed.
            #expect(try run(["log", "-n", "3"], pager: recorder).contains("EXITED 0"))
            #expect(!FileManager.default.fileExists(atPath: paged))
            let unpaged = try run(["list", "--no-pager", "--type", "heating"], pager: recorder)
            #expect(unpaged.contains("EXITED 0") && !FileManager.default.fileExists(atPath: paged))
            #expect(try run(["pending", "--no-pager"], pager: recorder).contains("EXITED 0"))
            let cat = try run(["list"], pager: "cat")
            #expect(cat.contains("EXITED 0") && !FileManager.default.fileExists(atPath: paged))

            // Piped: never paged.
            let piped = try runTool("devsync", ["list"], sandbox: sandbox, environment: ["PAGER": recorder])
            #expect(piped.lines.count == 88 && !FileManager.default.fileExists(atPath: paged))
            let limited = try runTool("devsync", ["log", "-n", "2"], sandbox: sandbox)
            #expect(limited.status == 0)
        }
    }
}
