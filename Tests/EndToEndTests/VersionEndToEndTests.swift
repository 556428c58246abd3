import Foundation
import Testing

/// Issues 50 and 67: one version, from the tree's changelog. Every binary says what
/// scripts/version.sh says, and the script's rules hold in a repository of its own (the
/// release's commit, commits after it, a shallow clone, no git at all, tags).
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

    static func changelog(_ versions: [String]) -> String {
        versions.map { "toolbox (\($0)-1) unstable; urgency=medium\n\n  * Release \($0).\n\n -- T <t@t.example>  Sun, 29 Nov 2026 03:10:00 +0000\n" }
            .joined(separator: "\n")
    }

    /// Issue 67: the version lives in the tree (packaging/deb/changelog's top entry), so a
    /// fresh clone without tags says it; tags, where there are any, must agree with it.
    @Test func theVersionComesFromTheChangelog() throws {
        let sandbox = try Sandbox()
        let repo = sandbox.root + "/repo"
        try FileManager.default.createDirectory(atPath: repo + "/scripts", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: repo + "/packaging/deb", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Binaries.repository + "/scripts/version.sh", toPath: repo + "/scripts/version.sh")
        try Self.changelog(["1.2.3", "1.2.2"]).write(toFile: repo + "/packaging/deb/changelog", atomically: true, encoding: .utf8)
        // Outside git: the file's version.
        #expect(try sh("sh scripts/version.sh", in: sandbox, folder: repo) == "1.2.3")
        // The commit that wrote the entry is the release.
        _ = try sh("git init -q && git add . && git commit -qm one", in: sandbox, folder: repo)
        #expect(try sh("sh scripts/version.sh", in: sandbox, folder: repo) == "1.2.3")
        #expect(try sh("sh scripts/version.sh --epoch", in: sandbox, folder: repo) == "1790000000")
        // Two commits after it (one touching the changelog's old entries): after the release
        // and before the next, for dpkg as for people.
        _ = try sh("git commit -q --allow-empty -m two && sed -i 's/Release 1.2.2/Release 1.2.2, fixed/' packaging/deb/changelog"
                   + " && git commit -qam three", in: sandbox, folder: repo)
        let third = try sh("git rev-parse --short=12 HEAD", in: sandbox, folder: repo)
        let between = try sh("sh scripts/version.sh", in: sandbox, folder: repo)
        #expect(between == "1.2.3+2.g" + third)
        #expect(try sh("dpkg --compare-versions 1.2.3 lt '\(between)' && dpkg --compare-versions '\(between)' lt 1.2.4 && echo ordered",
                       in: sandbox, folder: repo) == "ordered")
        // A shallow clone cannot see the release's commit: the version says so, not 1.2.3.
        _ = try sh("git clone -q --depth 1 file://$PWD ../shallow", in: sandbox, folder: repo)
        #expect(try sh("sh scripts/version.sh", in: sandbox, folder: sandbox.root + "/shallow") == "1.2.3+g" + third)
        // Tags agree with the changelog: one on the release does, one elsewhere does not.
        _ = try sh("git tag -a v1.2.3 -m r HEAD~2 && git tag nightly", in: sandbox, folder: repo)
        #expect(try sh("sh scripts/version.sh --check && echo agreed", in: sandbox, folder: repo) == "agreed")
        _ = try sh("git tag v1.2.4", in: sandbox, folder: repo)
        #expect(try sh("sh scripts/version.sh --check 2>&1 || echo refused", in: sandbox, folder: repo)
            .hasSuffix("tag v1.2.4 names a commit whose packaging/deb/changelog says '1.2.3'\nrefused"))
        // A new entry is the next release.
        try Self.changelog(["1.3.0", "1.2.3", "1.2.2"]).write(toFile: repo + "/packaging/deb/changelog", atomically: true, encoding: .utf8)
        _ = try sh("git commit -qam release", in: sandbox, folder: repo)
        #expect(try sh("sh scripts/version.sh", in: sandbox, folder: repo) == "1.3.0")
    }
}
