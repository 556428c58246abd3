import Foundation
import Testing
import ToolboxKit

/// blogctl against hostile files in its own folders and hostile values from the server
/// (issue 10): nothing outside the cache is written or deleted, nothing hangs or crashes.
@Suite struct BlogctlHostileFileEndToEndTests {
    static let fast = ["--latency", "0", "--massive-size", "300000", "--massive-rate", "100000000", "--quiet"]

    func blogctl(_ arguments: [String], _ sandbox: Sandbox, _ server: String) throws -> ToolRun {
        try runTool("blogctl", arguments, sandbox: sandbox, environment: ["BLOGCTL_SERVER": server], limit: 60)
    }

    func folder(_ sandbox: Sandbox, _ server: String) -> String { BlogctlEndToEndTests.cacheFolder(sandbox, server) }

    @Test func plantedTemporarySymlinksWriteNothingOutside() async throws {
        let sandbox = try Sandbox()
        let victim = try sandbox.write("victim.txt", "precious\n")
        var server = ""
        try await withMockd(Self.fast, sandbox: sandbox) { mockd in
            server = mockd.url
            try FileManager.default.createDirectory(atPath: folder(sandbox, server), withIntermediateDirectories: true)
            for folder in ["/blogctl", "/blogctl/servers", "/blogctl/servers/" + (try ServerURL(server)).folderName] {
                chmod(sandbox.cacheHome + folder, 0o700)
            }
            chmod(folder(sandbox, server), 0o700)
            // Symlinks under every name the old scheme (.NAME.tmp.PID) would have used next.
            let next = Int(getpid())
            for pid in next..<(next + 2_000) {
                for name in ["1.html.gz", "1.json"] {
                    try? FileManager.default.createSymbolicLink(atPath: folder(sandbox, server) + "/." + name + ".tmp.\(pid)",
                                                                withDestinationPath: victim)
                }
                try? FileManager.default.createSymbolicLink(atPath: sandbox.root + "/.avatar.jpg.tmp.\(pid)", withDestinationPath: victim)
            }
            let run1 = try blogctl(["read", "1", "--no-pager"], sandbox, mockd.url)
            #expect(run1.status == 0)
            let run2 = try blogctl(["avatar", "1", "-o", sandbox.root + "/avatar.jpg"], sandbox, mockd.url)
            #expect(run2.status == 0)
        }
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious\n")
        var info = stat()
        #expect(lstat(folder(sandbox, server) + "/1.html.gz", &info) == 0 && info.st_mode & S_IFMT == S_IFREG)
        #expect(info.st_mode & 0o777 == 0o600)
    }

    @Test func theCacheFolderIsPrivate() async throws {
        let sandbox = try Sandbox()
        try await withMockd(Self.fast, sandbox: sandbox) { mockd in
            let run3 = try blogctl(["read", "1", "--no-pager"], sandbox, mockd.url)
            #expect(run3.status == 0)
            var info = stat()
            #expect(stat(folder(sandbox, mockd.url), &info) == 0 && info.st_mode & 0o777 == 0o700)
            chmod(folder(sandbox, mockd.url), 0o777)
            let refused = try blogctl(["read", "2", "--no-pager"], sandbox, mockd.url)
            #expect(refused.status == 74, "\(refused.stderr)")
            #expect(refused.stderr.contains("writable by everyone"), "\(refused.stderr)")
            let clear = try blogctl(["cache", "clear"], sandbox, mockd.url)
            #expect(clear.status == 74)
            #expect(FileManager.default.fileExists(atPath: folder(sandbox, mockd.url) + "/1.json"))
        }
    }

    @Test func clearDeletesOnlyWhatTheCacheWrote() async throws {
        let sandbox = try Sandbox()
        try await withMockd(Self.fast, sandbox: sandbox) { mockd in
            let run4 = try blogctl(["read", "1", "--no-pager"], sandbox, mockd.url)
            #expect(run4.status == 0)
            let foreign = ["notes.txt", ".bash_history.99999999", ".profile.tmp.99999999"]
            for name in foreign { _ = try sandbox.write(String(folder(sandbox, mockd.url).dropFirst(sandbox.root.count + 1)) + "/" + name, "mine\n") }
            let clear = try blogctl(["cache", "clear"], sandbox, mockd.url)
            #expect(clear.status == 0, "\(clear.stderr)")
            for name in foreign { #expect(FileManager.default.fileExists(atPath: folder(sandbox, mockd.url) + "/" + name), "\(name)") }
            #expect(!FileManager.default.fileExists(atPath: folder(sandbox, mockd.url) + "/1.json"))
            // A cache folder that is a symlink to somewhere else is not emptied through the link.
            let elsewhere = sandbox.root + "/elsewhere"
            try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
            _ = try sandbox.write("elsewhere/2.json", "theirs\n")
            try FileManager.default.removeItem(atPath: folder(sandbox, mockd.url))
            try FileManager.default.createSymbolicLink(atPath: folder(sandbox, mockd.url), withDestinationPath: elsewhere)
            let run5 = try blogctl(["cache", "clear"], sandbox, mockd.url)
            #expect(run5.status == 74)
            #expect(FileManager.default.fileExists(atPath: elsewhere + "/2.json"))
        }
    }

    @Test func aFIFOInPlaceOfACachedBodyDoesNotHang() async throws {
        let sandbox = try Sandbox()
        var server = ""
        try await withMockd(Self.fast, sandbox: sandbox) { mockd in
            server = mockd.url
            let run6 = try blogctl(["read", "1", "--no-pager"], sandbox, mockd.url)
            #expect(run6.status == 0)
        }
        let body = folder(sandbox, server) + "/1.html.gz"
        unlink(body)
        #expect(mkfifo(body, 0o600) == 0)
        let run = try blogctl(["read", "1", "--offline", "--no-pager"], sandbox, server)
        #expect(run.status == 66, "\(run.stderr)")
        #expect(!run.signaled)
        // A link to an endless device is not read either.
        unlink(body)
        try FileManager.default.createSymbolicLink(atPath: body, withDestinationPath: "/dev/zero")
        let run7 = try blogctl(["read", "1", "--offline", "--no-pager"], sandbox, server)
        #expect(run7.status == 66)
    }

    @Test func extremeDatesAndListNumbersDoNotCrash() async throws {
        let sandbox = try Sandbox()
        let dates = ["0000-01-01T00:00:00+01:00", "9999-12-31T23:59:59-01:00", "2018-06-04T09:30:00Z"]
        let root = try BlogData.write(sandbox.root + "/extreme", dates.enumerated().map { ("p\($0)", "t\($0)", $1) }) { _ in
            #"<ol start="9223372036854775807"><li>x</li><li>y</li></ol><ol start="-9223372036854775808"><li>z</li></ol>"#
        }
        try await withMockd(["--data", root, "--latency", "0", "--quiet"], sandbox: sandbox) { mockd in
            for zone in ["UTC", "Pacific/Kiritimati", "Etc/GMT+12"] {
                let run = try runTool("blogctl", ["list", "--group-by", "month"], sandbox: sandbox,
                                      environment: ["BLOGCTL_SERVER": mockd.url, "TZ": zone])
                #expect(run.status == 0 && !run.signaled, "\(zone): \(run.stderr)")
                #expect(run.lines.count == 3, "\(zone): \(run.stdout)")
            }
            let read = try blogctl(["read", "p2", "--no-pager"], sandbox, mockd.url)
            #expect(read.status == 0 && !read.signaled, "\(read.stderr)")
            #expect(read.stdout.contains("2147483647. x"), "\(read.stdout)")
        }
    }
}
