import Foundation
import Testing

/// Issue 37: the edges a shared machine, a careless dotfile manager and a long command line
/// reach: the trust rule for config.yml and the store, no password in any output, and the
/// argument parser's own errors cleaned and capped.
@Suite struct TrustEndToEndTests {
    static let password = "SeKrEt9"
    static let proxyPassword = "PrOxY7"

    @Test func noCommandPrintsAPassword() async throws {
        let sandbox = try Sandbox()
        try await withMockd(["--quiet", "--latency", "0", "--failure-rate", "0"], sandbox: sandbox) { mockd in
            let server = mockd.url.replacing("http://", with: "http://alice:\(Self.password)@")
            let config = sandbox.root + "/config/toolbox/config.yml"
            try FileManager.default.createDirectory(atPath: sandbox.root + "/config/toolbox", withIntermediateDirectories: true)
            try "server: \(server)\nproxy: http://bob:\(Self.proxyPassword)@127.0.0.1:9\nnoproxy: 127.0.0.1\n"
                .write(toFile: config, atomically: true, encoding: .utf8)
            let runs: [(String, [String])] = [
                ("condtest", ["list", "-v"]), ("condtest", ["show", "nope", "-v"]), ("condtest", ["config"]),
                ("blogctl", ["list", "-v"]), ("blogctl", ["read", "1", "-v"]), ("blogctl", ["config"]),
                ("devsync", ["pull", "-v"]), ("devsync", ["show", "nope", "-v"]), ("devsync", ["config"]),
                ("passcode", ["config"]), ("passcode", ["--once", "--script", "-v"]),
                ("condtest", ["list", "-v", "--noproxy", "", "--retries", "0"]),
                ("condtest", ["list", "--proxy", "alice:\(Self.password)@127.0.0.1:3128/a://b", "--noproxy", "", "--retries", "0"]),
                ("condtest", ["list", "--proxy", "ftp://alice:\(Self.password)@127.0.0.1:1"]),
                ("condtest", ["list", "--server", "http://alice:\(Self.password)@127.0.0.1:x/"]),
                ("blogctl", ["list", "--server", "http://alice:\(Self.password)@127.0.0.1:1/", "--retries", "0"]),
            ]
            for (tool, arguments) in runs {
                let run = try runTool(tool, arguments, stdin: "", sandbox: sandbox, environment: ["PASSCODE_USER": "u", "PASSCODE_PASSWORD": "p"], limit: 60)
                for secret in [Self.password, Self.proxyPassword] {
                    #expect(!run.stdout.contains(secret) && !run.stderr.contains(secret), "\(tool) \(arguments): \(run.stdout) \(run.stderr)")
                }
            }
            let shown = try runTool("condtest", ["config"], sandbox: sandbox)
            #expect(shown.stdout.contains("http://alice:***@127.0.0.1"))
            #expect(shown.stdout.contains("http://bob:***@127.0.0.1:9"))
        }
    }

    @Test func anUntrustedConfigIsNotUsedAndSaysWhy() throws {
        let sandbox = try Sandbox()
        let folder = sandbox.root + "/config/toolbox"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let config = folder + "/config.yml"
        try "server: http://127.0.0.1:9\npager: touch \(sandbox.root)/F; cat\n".write(toFile: config, atomically: true, encoding: .utf8)
        chmod(config, 0o666)
        let run = try runTool("condtest", ["config"], sandbox: sandbox)
        #expect(run.stderr == "condtest: warning: \(config): it is writable by everyone (mode 666); not used\n")
        #expect(run.lines.contains("server\thttp://127.0.0.1:8106\tdefault"))
        #expect(run.lines.contains("pager\tless -R (LESS=FRX)\tdefault"))
        // A symlink, as stow and home-manager make them, is followed and its target checked.
        chmod(config, 0o600)
        try FileManager.default.moveItem(atPath: config, toPath: sandbox.root + "/dotfile.yml")
        try FileManager.default.createSymbolicLink(atPath: config, withDestinationPath: sandbox.root + "/dotfile.yml")
        let linked = try runTool("condtest", ["config"], sandbox: sandbox)
        #expect(linked.stderr.isEmpty && linked.lines.contains("server\thttp://127.0.0.1:9\t\(config):1"))
        try FileManager.default.removeItem(atPath: config)
        try FileManager.default.createSymbolicLink(atPath: config, withDestinationPath: "/dev/zero")
        let device = try runTool("condtest", ["config"], sandbox: sandbox, limit: 20)
        #expect(device.stderr == "condtest: warning: \(config): a device, not a regular file; not used\n")
        try FileManager.default.removeItem(atPath: config)
        mkfifo(config, 0o600)
        let fifo = try runTool("condtest", ["config"], sandbox: sandbox, limit: 20)
        #expect(fifo.stderr == "condtest: warning: \(config): a FIFO, not a regular file; not used\n")
        #expect(!FileManager.default.fileExists(atPath: sandbox.root + "/F"))
    }

    @Test func aStoreInAFolderOthersCanWriteIsRefused() throws {
        let sandbox = try Sandbox()
        let shared = sandbox.root + "/shared"
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: true)
        chmod(shared, 0o777)
        let run = try runTool("devsync", ["list", "--store", shared + "/devsync.sqlite"], sandbox: sandbox)
        #expect(run.status == 74)
        #expect(run.stderr == "devsync: \(shared)/devsync.sqlite: \(shared) is writable by everyone (mode 777); refusing to use it\n")
        #expect(!FileManager.default.fileExists(atPath: shared + "/devsync.sqlite"))
        let tmp = try runTool("devsync", ["list", "--store", "/tmp/devsync-e2e-\(getpid()).sqlite"], sandbox: sandbox)
        #expect(tmp.status == 74 && tmp.stderr.contains("/tmp is writable by everyone"))
        let own = sandbox.root + "/own"
        try FileManager.default.createDirectory(atPath: own, withIntermediateDirectories: true)
        chmod(own, 0o700)
        #expect(try runTool("devsync", ["list", "--store", own + "/devsync.sqlite"], sandbox: sandbox).status == 0)
    }

    @Test func theParsersErrorsAreCleanedCutAndQuick() throws {
        let sandbox = try Sandbox()
        let hostile = String(repeating: "x\u{1B}]0;pwn\u{07}", count: 5_000)
        let run = try runTool("condtest", ["lst", hostile], sandbox: sandbox)
        #expect(run.status == 64)
        #expect(!run.stderr.contains("\u{1B}") && !run.stderr.contains("\u{07}"))
        #expect(run.stderr.split(separator: "\n").allSatisfy { $0.count <= 201 })
        let huge = try runTool("condtest", ["show", String(repeating: "a", count: 100_000)], sandbox: sandbox)
        #expect(huge.status == 64 && huge.stderr == "condtest: argument 2 is 100000 bytes long; at most 64 KiB is taken\n")
        // 30,000 words: one line at once, not 40 s of parsing (the watchdog would stop it).
        let words = Array(repeating: "elegance", count: 30_000)
        let many = try runTool("blogctl", ["search"] + words, sandbox: sandbox, limit: 10)
        #expect(many.status == 64 && many.stderr == "blogctl: too many arguments (30001); at most 1024 are taken\n")
    }
}
