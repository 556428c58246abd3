import Foundation
import Testing

/// What a start costs: a command that draws no screen does not load ncurses (ScreenKit opens
/// it when a screen starts), and a screen that cannot open it says so in one line.
@Suite struct StartupEndToEndTests {
    /// The files the dynamic loader opened for one run, as glibc's LD_DEBUG=files reports them.
    func loadedLibraries(_ tool: String, _ arguments: [String], sandbox: Sandbox) throws -> [String] {
        let run = try runTool(tool, arguments, stdin: "", sandbox: sandbox, environment: ["LD_DEBUG": "files"])
        #expect(run.status == 0, "\(tool) \(arguments): \(run.stderr.suffix(300))")
        return run.stderr.split(separator: "\n").compactMap { line in
            guard let range = line.range(of: "file=") else { return nil }
            return String(line[range.upperBound...].prefix { $0 != " " && $0 != "[" })
        }
    }

    @Test(arguments: [("condtest", ["--version"]), ("passcode", ["--version"]), ("devsync", ["--help"]),
                      ("blogctl", ["--version"]), ("condtest", ["eval", "-e", "eq(arg1, \"a\")", "a"])])
    func aCommandWithoutAScreenLoadsNoCurses(command: (tool: String, arguments: [String])) throws {
        let sandbox = try Sandbox()
        let libraries = try loadedLibraries(command.tool, command.arguments, sandbox: sandbox)
        // The loader's report was read: libc is in every list.
        #expect(libraries.contains { $0.hasPrefix("libc.so") }, "\(libraries)")
        #expect(!libraries.contains { $0.contains("ncurses") || $0.contains("tinfo") }, "\(libraries)")
    }

    @Test func aScreenThatCannotOpenCursesSaysWhyAndExits64() throws {
        let sandbox = try Sandbox()
        // A file by the library's name that is no library, first on the loader's path.
        let libraries = sandbox.root + "/lib"
        try FileManager.default.createDirectory(atPath: libraries, withIntermediateDirectories: true)
        try Data("not a library\n".utf8).write(to: URL(fileURLWithPath: libraries + "/libncursesw.so.6"))
        let tmux = try TmuxSession(command: Binaries.path("condtest"), arguments: ["ui"], sandbox: sandbox,
                                   environment: ["CONDTEST_SERVER": "http://127.0.0.1:9", "LD_LIBRARY_PATH": libraries])
        defer { tmux.kill() }
        let screen = try tmux.waitForScreen { $0.contains("EXITED") }
        #expect(screen.contains("EXITED 64"), "\(screen)")
        #expect(screen.contains("condtest: cannot start the screen: cannot load libncursesw.so.6:"), "\(screen)")
        let modes = try tmux.terminalModes()
        #expect(modes.contains("icanon") && modes.contains("echo"))
    }
}
