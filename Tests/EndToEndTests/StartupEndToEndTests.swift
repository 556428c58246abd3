import Foundation
import TestSupport
import Testing

/// What a start costs: a command that draws no screen does not load ncurses (ScreenKit opens
/// it when a screen starts), one that renders no HTML does not load libxml2 (nor the ICU and
/// liblzma it brings), and a command that cannot open them says so in one line.
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
                      ("blogctl", ["--version"]), ("blogctl", ["--help"]), ("condtest", ["eval", "-e", "eq(arg1, \"a\")", "a"])])
    func aCommandWithoutAScreenLoadsNoCurses(command: (tool: String, arguments: [String])) throws {
        let sandbox = try Sandbox()
        let libraries = try loadedLibraries(command.tool, command.arguments, sandbox: sandbox)
        // The loader's report was read: libc is in every list.
        #expect(libraries.contains { $0.hasPrefix("libc.so") }, "\(libraries)")
        #expect(!libraries.contains { $0.contains("ncurses") || $0.contains("tinfo") }, "\(libraries)")
        #expect(!libraries.contains { $0.contains("xml2") || $0.contains("icu") || $0.contains("lzma") }, "\(libraries)")
    }

    /// A folder first on the loader's path with a file by `soname` that is no library.
    func brokenLibrary(_ soname: String, in sandbox: Sandbox) throws -> String {
        let folder = sandbox.root + "/lib"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data("not a library\n".utf8).write(to: URL(fileURLWithPath: folder + "/" + soname))
        return folder
    }

    @Test func aCommandThatCannotOpenLibXML2SaysWhyBeforeAnyOutput() async throws {
        let sandbox = try Sandbox()
        try await withMockd(["--quiet"] + BlogctlEndToEndTests.fast, sandbox: sandbox) { mockd in
            let list = try runTool("blogctl", ["list"], sandbox: sandbox, environment: ["BLOGCTL_SERVER": mockd.url])
            let id = try #require(list.stdout.split(separator: "\n").first?.split(separator: "\t").first.map(String.init))
            let broken = ["BLOGCTL_SERVER": mockd.url, "LD_LIBRARY_PATH": try brokenLibrary("libxml2.so.2", in: sandbox)]
            // list and search need no HTML: they run as ever.
            #expect(try runTool("blogctl", ["list"], sandbox: sandbox, environment: broken).status == 0)
            for command in [["read", id], ["links", id]] {
                let run = try runTool("blogctl", command, sandbox: sandbox, environment: broken)
                #expect(run.status == 74, "\(command): \(run.stderr)")
                #expect(run.stdout.isEmpty, "\(command)")
                #expect(run.stderr.split(separator: "\n").count == 1, "\(command): \(run.stderr)")
                #expect(run.stderr.hasPrefix("blogctl: ") && run.stderr.contains("libxml2.so.2"), "\(command): \(run.stderr)")
            }
            // With the library back, the same post reads.
            let read = try runTool("blogctl", ["read", id], sandbox: sandbox, environment: ["BLOGCTL_SERVER": mockd.url])
            #expect(read.status == 0 && !read.stdout.isEmpty, "\(read.stderr)")
        }
    }

    @Test func aScreenThatCannotOpenCursesSaysWhyAndExits64() throws {
        let sandbox = try Sandbox()
        let libraries = try brokenLibrary("libncursesw.so.6", in: sandbox)
        let tmux = try TmuxSession(command: Binaries.path("condtest"), arguments: ["ui"], sandbox: sandbox,
                                   environment: ["CONDTEST_SERVER": "http://127.0.0.1:9", "LD_LIBRARY_PATH": libraries])
        defer { tmux.kill() }
        let screen = try tmux.waitForScreen { $0.contains("EXITED") }
        #expect(screen.contains("EXITED 64"), "\(screen)")
        #expect(screen.contains("condtest: cannot start the screen: cannot load libncursesw.so.6:"), "\(screen)")
        let modes = try tmux.terminalModes()
        #expect(modes.contains("icanon") && modes.contains("echo"))
    }

    /// How /proc/PID/task/TID/syscall begins for a thread blocked reading descriptor 0: the
    /// call's number (read is 0 on x86_64, 63 on arm64), then its first argument.
    #if arch(x86_64)
    static let readingStdin = "0 0x0 "
    #else
    static let readingStdin = "63 0x0 "
    #endif

    /// The threads of `pid` and, for each, the system call it is in.
    func threads(of pid: Int32) -> [(tid: Int32, syscall: String)] {
        let folder = "/proc/\(pid)/task"
        let tids = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).compactMap { Int32($0) }
        return tids.map { tid in (tid, (try? String(contentsOfFile: "\(folder)/\(tid)/syscall", encoding: .utf8)) ?? "") }
    }

    /// A command that never waits on the network (a local `eval -e`) runs on the main thread
    /// from parse to exit: the async runtime's worker threads, about a third of a static
    /// Swift hello's start-up, are never started. Seen while it reads its stdin (--batch), a
    /// pipe this test holds open.
    @Test func aLocalCommandRunsOnTheMainThreadAlone() throws {
        let sandbox = try Sandbox()
        let input = Pipe()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Binaries.path("condtest"))
        process.arguments = ["eval", "-e", "eq(arg1, \"a\")", "--batch"]
        process.environment = sandbox.environment
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        watch(process)
        let pid = process.processIdentifier
        // Until some thread reads descriptor 0 (a guard of 60 s against a hang, not a timing).
        let deadline = Date().addingTimeInterval(60)
        var seen = threads(of: pid)
        while !seen.contains(where: { $0.syscall.hasPrefix(Self.readingStdin) }) && process.isRunning && Date() < deadline {
            usleep(1_000)
            seen = threads(of: pid)
        }
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        #expect(seen.count == 1, "threads while reading stdin: \(seen)")
        #expect(seen.first?.tid == pid && seen.first?.syscall.hasPrefix(Self.readingStdin) == true, "\(seen)")
        #expect(process.terminationStatus == 0)
    }
}
