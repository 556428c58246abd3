import Foundation
import Testing
import ToolboxKit
import TestSupport

/// The post cache from outside: gzip that zcat reads, damage discarded, the cache commands and
/// the size cap.
extension BlogctlEndToEndTests {
    @Test func theCacheIsGzipThatZcatReads() async throws {
        let sandbox = try Sandbox()
        try await withMockd(Self.fast, sandbox: sandbox) { mockd in
            #expect(try blogctl(["read", "2"], server: mockd.url, sandbox: sandbox).status == 0)
            let zcat = try runTool("zcat", ["-c", "zcat \"$0\"", cacheFolder(sandbox, mockd.url) + "/2.html.gz"], sandbox: sandbox,
                                   executable: "/bin/sh")
            let html = zcat.stdout
            let original = try String(contentsOfFile: Binaries.dataDirectory + "/blog/bodies/2.html", encoding: .utf8)
            #expect(html == original)
        }
    }

    @Test func aDamagedCacheFileIsDiscardedAndFetchedAgain() async throws {
        let sandbox = try Sandbox()
        try await withMockd(Self.fast, sandbox: sandbox, tailLog: true) { mockd in
            let first = try blogctl(["read", "1"], server: mockd.url, sandbox: sandbox)
            let path = cacheFolder(sandbox, mockd.url) + "/1.html.gz"
            let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
            try Data(bytes[0..<(bytes.count / 2)]).write(to: URL(fileURLWithPath: path))
            let second = try blogctl(["read", "1"], server: mockd.url, sandbox: sandbox)
            #expect(second.status == 0)
            #expect(second.stdout == first.stdout)
            #expect(second.stderr.contains("damaged"))
            mockd.tail?.wait(for: 2) { $0.hasPrefix("GET /post/1 ") }
            #expect(requests(mockd).filter { $0.hasPrefix("GET /post/1") } == ["GET /post/1 200", "GET /post/1 200"])
            // Offline, a damaged copy is removed and reported.
            try Data("garbage".utf8).write(to: URL(fileURLWithPath: path))
            let offline = try blogctl(["read", "1", "--offline"], server: mockd.url, sandbox: sandbox)
            #expect(offline.status == 66)
            #expect(offline.stderr.contains("damaged"))
            #expect(!cacheFiles(sandbox, mockd.url).contains("1.html.gz"))
        }
    }

    @Test func cacheCommands() async throws {
        let sandbox = try Sandbox()
        try await withMockd(Self.fast, sandbox: sandbox) { mockd in
            for id in ["1", "2"] { _ = try blogctl(["read", id], server: mockd.url, sandbox: sandbox) }
            let path = try blogctl(["cache", "path"], server: mockd.url, sandbox: sandbox)
            #expect(path.stdout == cacheFolder(sandbox, mockd.url) + "\n")
            let list = try blogctl(["cache", "list"], server: mockd.url, sandbox: sandbox)
            #expect(Set(list.lines.map { String($0.split(separator: "\t")[0]) }) == ["1", "2"])
            let stats = try blogctl(["cache", "stats", "--json"], server: mockd.url, sandbox: sandbox)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(stats.stdout.utf8)) as? [String: Any])
            #expect(object["posts"] as? Int == 2)
            #expect(object["capacity"] as? Int == 200_000_000)
            let clear = try blogctl(["cache", "clear"], server: mockd.url, sandbox: sandbox)
            #expect(clear.stderr == "blogctl: removed 2 cached posts\n")
            #expect(cacheFiles(sandbox, mockd.url).isEmpty)
        }
    }

    @Test func theCacheCapEvictsOldPosts() async throws {
        let sandbox = try Sandbox()
        try await withMockd(Self.fast, sandbox: sandbox) { mockd in
            // Each small post takes well under 1 kB on disk; the cap holds about two.
            for id in ["1", "2", "3", "4"] {
                let run = try blogctl(["read", id], server: mockd.url, sandbox: sandbox, environment: ["BLOGCTL_CACHE_MAX": "1800"])
                #expect(run.status == 0)
            }
            let files = cacheFiles(sandbox, mockd.url)
            #expect(files.contains("4.html.gz"))
            #expect(!files.contains("1.html.gz"))
            let total = files.reduce(0) { $0 + ((try? FileManager.default.attributesOfItem(atPath: cacheFolder(sandbox, mockd.url) + "/" + $1)[.size] as? Int) ?? 0) }
            #expect(total <= 1800)
        }
    }
}
