import Foundation
import Testing

/// Issue 50: one version, from the last tag. Every binary says what scripts/version.sh says,
/// and the script's rules hold in a repository of its own (tag, commits after it, no tag, no
/// git at all).
@Suite struct VersionEndToEndTests {
    func sh(_ script: String, in sandbox: Sandbox, folder: String) throws -> String {
        let run = try runTool("sh", ["-c", "cd '\(folder)' && " + script], sandbox: sandbox, environment: [
            "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@t",
            "GIT_COMMITTER_DATE": "@1790000000 +0000", "GIT_AUTHOR_DATE": "@1790000000 +0000", "GIT_CONFIG_GLOBAL": "/dev/null",
        ], executable: "/bin/sh")
        #expect(run.status == 0, "\(script): \(run.stderr)")
        return run.stdout.trimmingCharacters(in: .newlines)
    }

    @Test(arguments: ["condtest", "passcode", "blogctl", "devsync", "mockd"])
    func everyBinarySaysTheScriptsVersion(tool: String) throws {
        let sandbox = try Sandbox()
        let version = try sh("sh scripts/version.sh", in: sandbox, folder: Binaries.repository)
        #expect(try runTool(tool, ["--version"], sandbox: sandbox).stdout == tool + " " + version + "\n")
    }

    @Test func theVersionComesFromTheLastTag() throws {
        let sandbox = try Sandbox()
        let repo = sandbox.root + "/repo"
        try FileManager.default.createDirectory(atPath: repo + "/scripts", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Binaries.repository + "/scripts/version.sh", toPath: repo + "/scripts/version.sh")
        // Outside git.
        #expect(try sh("sh scripts/version.sh", in: sandbox, folder: repo) == "0.0.0+unknown")
        // No tag yet: the commit.
        _ = try sh("git init -q && git add . && git commit -qm one", in: sandbox, folder: repo)
        let first = try sh("git rev-parse --short=12 HEAD", in: sandbox, folder: repo)
        #expect(try sh("sh scripts/version.sh", in: sandbox, folder: repo) == "0.0.0+g" + first)
        #expect(try sh("sh scripts/version.sh --epoch", in: sandbox, folder: repo) == "1790000000")
        // At a tag, the tag; a tag that is not a version is not one.
        _ = try sh("git tag -a v1.2.3 -m r && git tag nightly", in: sandbox, folder: repo)
        #expect(try sh("sh scripts/version.sh", in: sandbox, folder: repo) == "1.2.3")
        // Two commits after it: after the tag and before the next, for dpkg as for people.
        _ = try sh("git commit -q --allow-empty -m two && git commit -q --allow-empty -m three && git tag nightly2", in: sandbox, folder: repo)
        let third = try sh("git rev-parse --short=12 HEAD", in: sandbox, folder: repo)
        let between = try sh("sh scripts/version.sh", in: sandbox, folder: repo)
        #expect(between == "1.2.3+2.g" + third)
        #expect(try sh("dpkg --compare-versions 1.2.3 lt '\(between)' && dpkg --compare-versions '\(between)' lt 1.2.4 && echo ordered",
                       in: sandbox, folder: repo) == "ordered")
    }
}
