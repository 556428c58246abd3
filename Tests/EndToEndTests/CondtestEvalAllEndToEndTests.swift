import Foundation
import Testing

/// Issue 13: `condtest eval --all` against mockd with generated conditions.
@Suite struct CondtestEvalAllEndToEndTests {
    func condtest(_ arguments: [String], server: String, sandbox: Sandbox) throws -> ToolRun {
        try runTool("condtest", arguments, sandbox: sandbox, environment: ["CONDTEST_SERVER": server])
    }

    @Test func everyConditionOneLineInListOrderAndEachAsEvalSaysIt() async throws {
        let sandbox = try Sandbox()
        try await withMockd(["--quiet", "--latency", "0-20", "--conditions", "30", "--seed", "5"], sandbox: sandbox) { mockd in
            let list = try condtest(["list"], server: mockd.url, sandbox: sandbox)
            let ids = list.lines.map { String($0.split(separator: "\t")[0]) }
            #expect(ids.count == 42)

            // Three arguments satisfy every condition: all evaluated, exit 0.
            let all = try condtest(["eval", "--all", "--jobs", "4", "rollout.io", "ro", "x"], server: mockd.url, sandbox: sandbox)
            #expect(all.status == 0, "\(all.stderr)")
            #expect(all.stderr.isEmpty)
            #expect(all.lines.map { String($0.split(separator: "\t")[0]) } == ids)
            // Every line agrees with eval on its own (which takes exactly the arguments it needs).
            for line in all.lines {
                let fields = line.split(separator: "\t").map(String.init)
                try #require(fields.count == 3, "\(line)")
                #expect(fields[2] == "true" || fields[2] == "false", "\(line)")
                let show = try condtest(["show", "--json", fields[0]], server: mockd.url, sandbox: sandbox)
                let record = try JSONSerialization.jsonObject(with: Data(show.stdout.utf8)) as? [String: Any]
                let count = try #require(record?["arguments"] as? Int, "\(show.stdout)")
                let one = try condtest(["eval", "-q", fields[0]] + Array(["rollout.io", "ro", "x"].prefix(count)),
                                       server: mockd.url, sandbox: sandbox)
                #expect(one.status == (fields[2] == "true" ? 0 : 1), "\(line)")
            }
        }
    }

    @Test func tooFewArgumentsIsALineNotAStopAndExits65() async throws {
        let sandbox = try Sandbox()
        try await withMockd(["--quiet", "--latency", "0", "--conditions", "6"], sandbox: sandbox) { mockd in
            let run = try condtest(["eval", "--all", "rollout.io"], server: mockd.url, sandbox: sandbox)
            #expect(run.status == 65)
            #expect(run.lines.count == 18)
            let errors = run.lines.filter { $0.hasSuffix("error: the condition takes 2 arguments, got 1") || $0.hasSuffix("error: the condition takes 3 arguments, got 1") }
            #expect(!errors.isEmpty)
            #expect(run.lines.contains("5b8f1c3e9d1a4c0012a3b001\tDomain is rollout.io\ttrue"))

            let json = try condtest(["eval", "--all", "--json", "rollout.io"], server: mockd.url, sandbox: sandbox)
            #expect(json.status == 65)
            let items = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]]
            #expect(items?.count == 18)
            #expect(items?.first?["result"] as? Bool == true)
            #expect(items?.contains { $0["result"] is NSNull && ($0["error"] as? String)?.hasPrefix("the condition takes") == true } == true)
        }
    }

    @Test func aServerThatFailsSomeRequestsGivesErrorLinesForThoseOnly() async throws {
        let sandbox = try Sandbox()
        // One request at a time and no retries: the seed decides which answers are 500.
        try await withMockd(["--quiet", "--latency", "0", "--failure-rate", "0.4", "--seed", "9"], sandbox: sandbox) { mockd in
            let run = try condtest(["eval", "--all", "--jobs", "1", "--retries", "0", "a", "b"], server: mockd.url, sandbox: sandbox)
            #expect(run.lines.count == 12, "\(run.stderr)")
            let errors = run.lines.filter { $0.contains("\terror: ") }
            #expect(!errors.isEmpty && errors.count < 12, "\(run.stdout)")
            #expect(errors.allSatisfy { $0.contains("\terror: HTTP 500: Internal Server Error (/conditions/") }, "\(errors)")
            // The server failing is not the condition's fault: 69, as for any unavailable server.
            #expect(run.status == 69)
        }
    }

    @Test func allTakesNoOtherSource() async throws {
        let sandbox = try Sandbox()
        let run = try condtest(["eval", "--all", "-e", "eq(arg1, \"x\")", "x"], server: "http://127.0.0.1:9", sandbox: sandbox)
        #expect(run.status == 64)
        #expect(run.stderr.contains("--all"))
    }
}
