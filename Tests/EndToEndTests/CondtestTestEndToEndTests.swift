import Foundation
import Testing

/// Issue 13: `condtest test` against mockd, as a user and a CI job run it.
@Suite struct CondtestTestEndToEndTests {
    static let c1 = "5b8f1c3e9d1a4c0012a3b001"  // eq(arg1, "rollout.io")
    static let c3 = "5b8f1c3e9d1a4c0012a3b003"  // and(ne(arg1, "rollout.io"), containsString(arg1, "ro"))

    func condtest(_ arguments: [String], stdin: String? = nil, server: String, sandbox: Sandbox) throws -> ToolRun {
        try runTool("condtest", ["test"] + arguments, stdin: stdin, sandbox: sandbox, environment: ["CONDTEST_SERVER": server])
    }

    @Test func passingTablesExitZeroAndSayHowMany() async throws {
        let sandbox = try Sandbox()
        let tsv = try sandbox.write("cases.tsv", """
            # domain checks
            \(Self.c1)\ttrue\trollout.io
            \(Self.c1)\tfalse\trollout.com

            \(Self.c3)\ttrue\trobot
            =startsWith(arg1, "ro")\ttrue\trobot

            """)
        let jsonl = try sandbox.write("cases.jsonl", """
            {"condition": "\(Self.c3)", "args": ["rollout.io"], "expect": false, "name": "the domain itself"}
            {"condition": {"op": "eq", "args": [{"type": "argument", "argumentNumber": 1}, {"type": "string", "value": "x"}]}, "args": ["x"], "expect": true}

            """)
        try await withMockd(["--latency", "0"], sandbox: sandbox, tailLog: true) { mockd in
            let run = try condtest([tsv, jsonl], server: mockd.url, sandbox: sandbox)
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stdout == "6 passed, 0 failed\n")
            #expect(run.stderr.isEmpty)
            // Each server condition fetched once, whatever the number of cases.
            mockd.tail?.wait(for: 2) { $0.hasPrefix("GET /conditions/") }
            let fetched = mockd.log.split(separator: "\n").filter { $0.hasPrefix("GET /conditions/") }
                .map { $0.split(separator: " ")[1] }
            #expect(fetched.sorted() == ["/conditions/\(Self.c1)", "/conditions/\(Self.c3)"], "\(mockd.log)")
        }
    }

    @Test func aFailingCaseShowsWhereWhatAndWhyAndExitsOne() async throws {
        let sandbox = try Sandbox()
        try await withMockd(["--quiet", "--latency", "0"], sandbox: sandbox) { mockd in
            let run = try condtest(["-"], stdin: "\(Self.c3)\ttrue\trobot\n\(Self.c3)\ttrue\trollout.io\n",
                                   server: mockd.url, sandbox: sandbox)
            #expect(run.status == 1)
            #expect(run.stdout == """
                FAIL stdin:2
                  condition: \(Self.c3) (Not rollout.io but contains ro)
                  as text:   and(ne(arg1, "rollout.io"), containsString(arg1, "ro"))
                  arguments: "rollout.io"
                  expected:  true
                  actual:    false
                    and: false
                      ne(arg1 = "rollout.io", "rollout.io"): false
                      containsString(arg1, "ro"): skipped

                1 passed, 1 failed

                """)
            let quiet = try condtest(["-q", "-"], stdin: "\(Self.c3)\ttrue\trollout.io\n", server: mockd.url, sandbox: sandbox)
            #expect(quiet.status == 1 && quiet.stdout.isEmpty)
        }
    }

    @Test func malformedFilesAndUnknownConditionsStopWithTheirStatus() async throws {
        let sandbox = try Sandbox()
        try await withMockd(["--quiet", "--latency", "0"], sandbox: sandbox) { mockd in
            let bad = try condtest(["-"], stdin: "\(Self.c1)\ttrue\trollout.io\n\(Self.c1)\tyes\tx\n", server: mockd.url, sandbox: sandbox)
            #expect(bad.status == 65)
            #expect(bad.stderr == "condtest: stdin:2:26: expected true or false, found \"yes\"\n")
            let arity = try condtest(["-"], stdin: "\(Self.c1)\ttrue\n", server: mockd.url, sandbox: sandbox)
            #expect(arity.status == 65)
            #expect(arity.stderr == "condtest: stdin:1:30: the condition takes 1 argument, got 0\n")
            let unknown = try condtest(["-"], stdin: "nothere\ttrue\tx\n", server: mockd.url, sandbox: sandbox)
            #expect(unknown.status == 66)
            #expect(unknown.stderr.hasPrefix("condtest: stdin:1: no condition \"nothere\""), "\(unknown.stderr)")
            let missing = try condtest(["no-such-file.tsv"], server: mockd.url, sandbox: sandbox)
            #expect(missing.status == 66)
            #expect(missing.stderr == "condtest: no-such-file.tsv: No such file or directory\n")
        }
        let down = try condtest(["-"], stdin: "\(Self.c1)\ttrue\tx\n", server: "http://127.0.0.1:9", sandbox: sandbox)
        #expect(down.status == 69)
        // Expressions need no server at all.
        let offline = try condtest(["-"], stdin: "=eq(arg1, \"x\")\ttrue\tx\n", server: "http://127.0.0.1:9", sandbox: sandbox)
        #expect(offline.status == 0 && offline.stdout == "1 passed, 0 failed\n")
    }

    @Test func coverageNamesTheUntestedBranchesAndCanFailTheRun() async throws {
        let sandbox = try Sandbox()
        try await withMockd(["--quiet", "--latency", "0"], sandbox: sandbox) { mockd in
            let cases = "\(Self.c3)\ttrue\trobot\n\(Self.c3)\tfalse\trollout.io\n"
            let run = try condtest(["--coverage", "-"], stdin: cases, server: mockd.url, sandbox: sandbox)
            #expect(run.status == 0)
            #expect(run.stdout == """
                coverage: 5 of 6 node outcomes (83.3%)
                  \(Self.c3) (Not rollout.io but contains ro): 5 of 6 outcomes
                    and(ne(arg1, "rollout.io"), containsString(arg1, "ro"))
                    col 29  containsString(arg1, "ro")  never false
                2 passed, 0 failed

                """)
            let short = try condtest(["--coverage-min", "90", "-"], stdin: cases, server: mockd.url, sandbox: sandbox)
            #expect(short.status == 1)
            #expect(short.stderr == "condtest: coverage 83.3% is below --coverage-min 90.0\n")
            let full = try condtest(["--coverage-min", "100", "-"], stdin: cases + "\(Self.c3)\tfalse\txyz\n",
                                    server: mockd.url, sandbox: sandbox)
            #expect(full.status == 0, "\(full.stdout)")
            #expect(full.stdout.hasPrefix("coverage: 6 of 6 node outcomes (100.0%)\n"))
        }
    }

    @Test func ciReportsAreWholeDocuments() async throws {
        let sandbox = try Sandbox()
        try await withMockd(["--quiet", "--latency", "0"], sandbox: sandbox) { mockd in
            let cases = "\(Self.c1)\ttrue\trollout.io\n\(Self.c1)\ttrue\tx\n"
            let tap = try condtest(["--format", "tap", "-"], stdin: cases, server: mockd.url, sandbox: sandbox)
            #expect(tap.status == 1)
            #expect(tap.stdout.hasPrefix("TAP version 14\nok 1 - stdin:1 \(Self.c1) \"rollout.io\"\nnot ok 2 - stdin:2 "))
            #expect(tap.stdout.hasSuffix("  ...\n1..2\n"))
            let junit = try condtest(["--format", "junit", "-"], stdin: cases, server: mockd.url, sandbox: sandbox)
            #expect(junit.status == 1)
            #expect(junit.stdout.contains(#"<testsuites name="condtest" tests="2" failures="1" errors="0">"#))
            let json = try condtest(["--json", "-"], stdin: cases, server: mockd.url, sandbox: sandbox)
            let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
            #expect(object?["passed"] as? Int == 1 && object?["failed"] as? Int == 1)
            let both = try condtest(["--json", "--format", "tap", "-"], stdin: cases, server: mockd.url, sandbox: sandbox)
            #expect(both.status == 64)
        }
    }

    /// Issue 29: the JSON and JUnit reports stream their failures through a spool file: a
    /// run with 200,000 failures stays small (it took 1 GB at 300,000) and the documents are whole.
    @Test func reportsOfManyFailuresStaySmall() async throws {
        let sandbox = try Sandbox()
        let count = 200_000
        let cases = String(repeating: "\(Self.c1)\ttrue\tx\n", count: count)
        try await withMockd(["--quiet", "--latency", "0"], sandbox: sandbox) { mockd in
            let json = try runMeasured("condtest", ["test", "--json", "-"], stdin: cases, sandbox: sandbox,
                                       environment: ["CONDTEST_SERVER": mockd.url])
            #expect(json.run.status == 1)
            #expect(json.kib > 0 && json.kib < 64 << 10, "\(json.kib) KiB")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(json.run.stdout.utf8)) as? [String: Any])
            #expect(object["failed"] as? Int == count && object["passed"] as? Int == 0)
            #expect((object["failures"] as? [Any])?.count == count)
            let junit = try runMeasured("condtest", ["test", "--format", "junit", "-"], stdin: cases, sandbox: sandbox,
                                        environment: ["CONDTEST_SERVER": mockd.url])
            #expect(junit.run.status == 1)
            #expect(junit.kib > 0 && junit.kib < 64 << 10, "\(junit.kib) KiB")
            #expect(junit.run.stdout.contains(#"<testsuites name="condtest" tests="\#(count)" failures="\#(count)" errors="0">"#))
            #expect(junit.run.stdout.components(separatedBy: "<failure ").count == count + 1)
            #expect(junit.run.stdout.hasSuffix("</testsuite>\n</testsuites>\n"))
        }
    }
}
