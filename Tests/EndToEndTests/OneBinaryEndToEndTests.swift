import Foundation
import Testing

/// Issue 67: the five tools are one binary, `toolbox`, which runs the tool it is called as.
/// Each name behaves as its own binary did, called through a link or as `toolbox NAME`; any
/// other name is told what the binary is, never run as some tool.
@Suite struct OneBinaryEndToEndTests {
    static let tools = ["condtest", "passcode", "blogctl", "devsync", "mockd"]

    @Test(arguments: tools) func aToolByItsNameOrAsAnArgumentIsTheSame(tool: String) throws {
        let sandbox = try Sandbox()
        for arguments in [["--version"], ["--help"], ["no-such-command"], ["--generate-completion-script", "bash"]] {
            let linked = try runTool(tool, arguments, sandbox: sandbox)
            let named = try runTool("toolbox", [tool] + arguments, sandbox: sandbox)
            #expect(linked.status == named.status, "\(tool) \(arguments)")
            #expect(linked.stdout == named.stdout, "\(tool) \(arguments)")
            #expect(linked.stderr == named.stderr, "\(tool) \(arguments)")
        }
        let version = try runTool(tool, ["--version"], sandbox: sandbox).stdout
        #expect(version.hasPrefix(tool + " ") && !version.contains("toolbox"))
    }

    /// A link in another folder, by absolute path: the name is the last part of argv[0].
    @Test func aLinkAnywhereRunsTheToolItIsNamedFor() throws {
        let sandbox = try Sandbox()
        let link = sandbox.root + "/bin/condtest"
        try FileManager.default.createDirectory(atPath: sandbox.root + "/bin", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: Binaries.path("toolbox"))
        let run = try runTool("condtest", ["eval", "-e", "eq(arg1, \"a\")", "a"], sandbox: sandbox, executable: link)
        #expect(run.status == 0 && run.stdout == "true\n")
    }

    @Test func anyOtherNameIsToldWhatTheBinaryIs() throws {
        let sandbox = try Sandbox()
        let link = sandbox.root + "/ct"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: Binaries.path("toolbox"))
        let usage = "usage: toolbox NAME [ARGUMENTS], NAME one of blogctl, condtest, devsync, mockd, passcode; "
            + "or call this binary by one of those names (make install links each to it)"
        let other = try runTool("ct", ["eval", "-e", "true"], sandbox: sandbox, executable: link)
        #expect(other.status == 2 && other.stdout.isEmpty)
        #expect(other.stderr == "toolbox: no tool named 'eval'; " + usage + "\n")
        let bare = try runTool("toolbox", [], sandbox: sandbox)
        #expect(bare.status == 2 && bare.stderr == "toolbox: " + usage + "\n")
        let help = try runTool("toolbox", ["--help"], sandbox: sandbox)
        #expect(help.status == 0 && help.stdout == usage + "\n")
        let version = try runTool("toolbox", ["--version"], sandbox: sandbox)
        #expect(version.status == 0 && version.stdout.hasPrefix("toolbox ") && version.stdout.hasSuffix("\n"))
        // A name that is a tool's with a different case or a suffix is not that tool.
        let near = sandbox.root + "/condtest.old"
        try FileManager.default.createSymbolicLink(atPath: near, withDestinationPath: Binaries.path("toolbox"))
        #expect(try runTool("x", ["list"], sandbox: sandbox, executable: near).status == 2)
    }
}
