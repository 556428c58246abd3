import Foundation
import Testing

/// Every `--help` of every command of every tool, as a user reads them: no placeholder where
/// the tool's own name belongs, no line holding only a backslash, and `--version` names the tool.
@Suite struct HelpTextEndToEndTests {
    /// The subcommands a help text lists (the words at the start of the SUBCOMMANDS lines).
    func subcommands(_ help: String) -> [String] {
        guard let start = help.range(of: "SUBCOMMANDS:\n") else { return [] }
        return help[start.upperBound...].split(separator: "\n", omittingEmptySubsequences: false).prefix { !$0.isEmpty }.compactMap { line in
            guard line.hasPrefix("  "), !line.hasPrefix("   ") else { return nil }
            return line.split(separator: " ").first.map(String.init)
        }
    }

    /// Every command path of `tool`, the root first.
    func commands(_ tool: String, sandbox: Sandbox, under path: [String] = []) throws -> [([String], String)] {
        let run = try runTool(tool, path + ["--help"], sandbox: sandbox)
        #expect(run.status == 0, "\(tool) \(path.joined(separator: " ")) --help: \(run.stderr)")
        var found = [(path, run.stdout)]
        guard run.status == 0, path.count < 3 else { return found }
        for name in subcommands(run.stdout) where name != "help" {
            found += try commands(tool, sandbox: sandbox, under: path + [name])
        }
        return found
    }

    @Test(arguments: ["condtest", "passcode", "blogctl", "devsync", "mockd"])
    func everyHelpIsWhole(tool: String) throws {
        let sandbox = try Sandbox()
        let all = try commands(tool, sandbox: sandbox)
        #expect(all.count > (tool == "mockd" ? 0 : 2), "\(tool) lists its commands")
        for (path, help) in all {
            let name = ([tool] + path).joined(separator: " ")
            // `$TOOL_…` is a placeholder; `$TOOLBOX_SERVER` is a real variable.
            #expect(!help.contains("$TOOL_") && !help.contains("$TOOL "), "\(name): a placeholder")
            for line in help.split(separator: "\n") {
                #expect(line.trimmingCharacters(in: .whitespaces) != "\\", "\(name): a line that is only a backslash")
            }
            if help.contains("--server") {
                #expect(help.contains("$" + tool.uppercased() + "_SERVER"), "\(name): --server names its variable")
            }
        }
        let version = try runTool(tool, ["--version"], sandbox: sandbox)
        #expect(version.stdout.hasPrefix(tool + " ") && version.stdout.hasSuffix("\n"))
    }
}
