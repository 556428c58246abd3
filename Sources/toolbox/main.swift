#if canImport(Glibc)
import Glibc
#endif
import BlogctlCommands
import CondtestCommands
import DevsyncCommands
import MockdCommands
import PasscodeCommands
import ToolboxKit

// One binary for the five tools, as busybox is one for its applets: each tool is run by the
// name it is called by (a link named condtest runs condtest), so the Swift runtime and the
// libraries the tools share are installed once. `toolbox NAME ARGUMENTS` runs a tool too.
//
// A switch, not a dictionary: a dictionary's type is made at run time, and making it sends the
// Swift runtime through every protocol conformance in the binary (to find String's Hashable)
// before any tool starts.
func tool(named name: String) -> (([String]) -> Never)? {
    switch name {
    case "blogctl": blogctlMain
    case "condtest": condtestMain
    case "devsync": devsyncMain
    case "mockd": mockdMain
    case "passcode": passcodeMain
    default: nil
    }
}
let toolNames = ["blogctl", "condtest", "devsync", "mockd", "passcode"]
let arguments = CommandLine.arguments
// The last part of argv[0], split by bytes (a name after a combining mark is still a name).
let calledAs = arguments.first.flatMap { $0.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).last }
    .map { String(decoding: $0, as: UTF8.self) } ?? ""

if let tool = tool(named: calledAs) {
    tool(Array(arguments.dropFirst()))
}
if arguments.count > 1, let tool = tool(named: arguments[1]) {
    tool(Array(arguments.dropFirst(2)))
}
if arguments.dropFirst() == ["--version"] {
    StandardOutput.print(ToolboxVersion.line(for: "toolbox") + "\n")
    exit(0)
}
let usage = "usage: toolbox NAME [ARGUMENTS], NAME one of " + toolNames.joined(separator: ", ")
    + "; or call this binary by one of those names (make install links each to it)"
if arguments.dropFirst() == ["--help"] || arguments.dropFirst() == ["-h"] {
    StandardOutput.print(usage + "\n")
    exit(0)
}
StandardError.write("toolbox: " + (arguments.count > 1 ? "no tool named '\(Terminal.sanitizeField(arguments[1]))'; " : "") + usage)
exit(2)
