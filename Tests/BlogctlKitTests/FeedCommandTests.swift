@testable import BlogctlKit
import Testing
import ToolboxKit
@testable import BlogctlEngines

/// Issue 65: newsboat's `exec:` and `filter:` feeds: the lines read as newsboat reads them,
/// the library's name for each and back, and the command run with its output bounded, its
/// time bounded and its failure said.
@Suite struct FeedCommandTests {
    @Test func linesAreReadAsNewsboatWritesThem() {
        #expect(FeedCommand("exec:~/bin/feed.sh --all") == .exec("~/bin/feed.sh --all"))
        // The filter's path ends where its URL starts, a colon of its own kept.
        #expect(FeedCommand("filter:/opt/a:b/f.sh:https://x.example/feed.xml") == .filter("/opt/a:b/f.sh", url: "https://x.example/feed.xml"))
        #expect(FeedCommand("filter:tr a-z A-Z:http://127.0.0.1:9/x?y=1") == .filter("tr a-z A-Z", url: "http://127.0.0.1:9/x?y=1"))
        for refused in ["exec:", "exec:   ", "filter:cmd", "filter::http://x.example/", "filter:cmd:ftp://x.example/", "https://x.example/", "query:a:b"] {
            #expect(FeedCommand(refused) == nil, "\(refused)")
        }
        let subscriptions = Subscriptions.parse("\"exec:echo hi\" ~Named tech\nfilter:f.sh:https://x.example/f.xml\n")
        #expect(subscriptions.map(\.url) == ["exec:echo hi", "filter:f.sh:https://x.example/f.xml"])
        #expect(subscriptions[0].title == "Named" && subscriptions[0].tags == ["tech"])
        // Unnamed, a command feed is named by its line, not by the name the library keeps it under.
        #expect(subscriptions[1].name(server: subscriptions[1].server, feedTitle: nil) == "filter:f.sh:https://x.example/f.xml")
    }

    @Test func theLibrarysNameForACommandFeedLeadsBackToIt() throws {
        for command in [FeedCommand.exec("printf '%s' \"a/b?c#d é\" | tr -d x"), .filter("/usr/bin/f --x=/y", url: "https://u:p@x.example/a?q=1&r=%20")] {
            let server = command.server
            #expect(server.host == (command.line.hasPrefix("exec:") ? "exec.invalid" : "filter.invalid"))
            #expect(FeedCommand(server: server) == command, "\(server)")
            #expect(Subscription.server(for: command.line) == server)
        }
        #expect(FeedCommand(server: try ServerURL("http://exec.example/abc")) == nil)
        #expect(FeedCommand.exec("a").server.folderName != FeedCommand.exec("b").server.folderName)
    }

    @Test func theOutputIsTheFeedAndAFilterReadsItsInput() async throws {
        let echoed = try await FeedCommand.exec("printf '<rss/>'").output(input: [], limit: 1 << 20, seconds: 3_600)
        #expect(echoed == Array("<rss/>".utf8))
        // Input larger than a pipe holds, read while the output is written: neither side waits.
        let input = Array(repeating: UInt8(ascii: "a"), count: 1 << 20)
        let filtered = try await FeedCommand.filter("tr a b", url: "http://x.example/").output(input: input, limit: 4 << 20, seconds: 3_600)
        #expect(filtered == Array(repeating: UInt8(ascii: "b"), count: 1 << 20))
        // A command that never reads its input still ends.
        #expect(try await FeedCommand.filter("true", url: "http://x.example/").output(input: input, limit: 1 << 20, seconds: 3_600).isEmpty)
    }

    @Test func aFailureIsSaidWithWhatTheCommandWrote() async {
        await #expect { try await FeedCommand.exec("echo 'no such feed' >&2; echo more >&2; exit 3").output(input: [], limit: 1 << 20, seconds: 3_600) }
            throws: { ($0 as? ToolError)?.message == "the command exited with status 3: no such feed" }
        await #expect { try await FeedCommand.exec("kill -KILL $$").output(input: [], limit: 1 << 20, seconds: 3_600) }
            throws: { ($0 as? ToolError)?.message == "the command ended by signal 9" }
        // Past its bound: 4x the limit written, stopped at the limit.
        await #expect { try await FeedCommand.exec("head -c 4096 /dev/zero").output(input: [], limit: 1024, seconds: 3_600) }
            throws: { ($0 as? ToolError)?.message == "the command wrote more than 1024 bytes; stopped" }
        await #expect { try await FeedCommand.exec("yes").output(input: [], limit: 1 << 20, seconds: 3_600) }
            throws: { ($0 as? ToolError)?.message == "the command wrote more than 1 MiB; stopped" }
        // An endless command with no output is stopped at its time.
        await #expect { try await FeedCommand.exec("exec sleep 600").output(input: [], limit: 1 << 20, seconds: 0.2) }
            throws: { ($0 as? ToolError)?.message == "the command did not end within 1 s; stopped" }
    }
}
