import Foundation
import Testing
import TestSupport

/// condtest against mockd, as a user runs it: arguments, stdin, environment, exit status.
@Suite struct CondtestEndToEndTests {
    static let equalsID = "5b8f1c3e9d1a4c0012a3b001"
    static let containsID = "5b8f1c3e9d1a4c0012a3b003"
    static let sloganID = "5b8f1c3e9d1a4c0012a3b005"
    static let mixedID = "5b8f1c3e9d1a4c0012a3b009"

    func condtest(_ arguments: [String], stdin: String? = nil, server: String, sandbox: Sandbox) throws -> ToolRun {
        try runTool("condtest", arguments, stdin: stdin, sandbox: sandbox, environment: ["CONDTEST_SERVER": server])
    }

    @Test func listIsTabSeparatedWhenPiped() async throws {
        let sandbox = try Sandbox()
        try await withMockd(["--quiet"], sandbox: sandbox) { mockd in
            let run = try condtest(["list"], server: mockd.url, sandbox: sandbox)
            #expect(run.status == 0)
            #expect(run.stderr.isEmpty)
            #expect(run.lines.count == 12)
            #expect(run.lines.first == "\(Self.equalsID)\tDomain is rollout.io")
            #expect(run.lines.allSatisfy { $0.split(separator: "\t").count == 2 })
        }
    }

    @Test func listAsJSON() async throws {
        let sandbox = try Sandbox()
        try await withMockd(["--quiet"], sandbox: sandbox) { mockd in
            let run = try condtest(["list", "--json"], server: mockd.url, sandbox: sandbox)
            let items = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: String]]
            #expect(items?.count == 12)
            #expect(items?.first?["_id"] == Self.equalsID)
        }
    }

    @Test func showPrintsTheTextSyntax() async throws {
        let sandbox = try Sandbox()
        try await withMockd(["--quiet"], sandbox: sandbox) { mockd in
            let run = try condtest(["show", Self.mixedID], server: mockd.url, sandbox: sandbox)
            #expect(run.status == 0)
            #expect(run.stdout == """
                name\tProduction .io host or beta tester (mixed encodings)
                id\t\(Self.mixedID)
                arguments\t2
                condition\tor(and(endsWith(arg1, ".io"), not(containsString(arg1, "staging"))), eq(arg2, "beta"))

                """)
            let json = try condtest(["show", "--json", "5b8f1c3e9d1a4c0012a3b002"], server: mockd.url, sandbox: sandbox)
            #expect(json.stdout.contains(#""argumentNumber" : 1"#))
            #expect(!json.stdout.contains(#""data""#))
        }
    }

    @Test func evalExitsZeroForTrueOneForFalse() async throws {
        let sandbox = try Sandbox()
        try await withMockd(["--quiet"], sandbox: sandbox) { mockd in
            let yes = try condtest(["eval", Self.containsID, "robot"], server: mockd.url, sandbox: sandbox)
            #expect(yes.status == 0)
            #expect(yes.stdout == "true\n")
            let no = try condtest(["eval", Self.containsID, "rollout.io"], server: mockd.url, sandbox: sandbox)
            #expect(no.status == 1)
            #expect(no.stdout == "false\n")
            #expect(no.stderr.isEmpty)
            let quiet = try condtest(["eval", "-q", Self.sloganID, "rollout.io", "control your production"],
                                     server: mockd.url, sandbox: sandbox)
            #expect(quiet.status == 0)
            #expect(quiet.stdout.isEmpty)
        }
    }

    @Test func bothEncodingsOnTheServerAgree() async throws {
        let sandbox = try Sandbox()
        try await withMockd(["--quiet"], sandbox: sandbox) { mockd in
            for (v1, v2) in [("001", "002"), ("003", "007"), ("005", "006")] {
                for words in [["rollout.io", "control your production"], ["robot", "x"], ["rollout.io", "x"]] {
                    let a = try condtest(["show", "5b8f1c3e9d1a4c0012a3b" + v1], server: mockd.url, sandbox: sandbox)
                    let b = try condtest(["show", "5b8f1c3e9d1a4c0012a3b" + v2], server: mockd.url, sandbox: sandbox)
                    #expect(a.lines.last == b.lines.last)
                    let count = Int(a.lines[2].split(separator: "\t")[1])!
                    let first = try condtest(["eval", "5b8f1c3e9d1a4c0012a3b" + v1] + words.prefix(count), server: mockd.url, sandbox: sandbox)
                    let second = try condtest(["eval", "5b8f1c3e9d1a4c0012a3b" + v2] + words.prefix(count), server: mockd.url, sandbox: sandbox)
                    #expect(first.status == second.status)
                }
            }
        }
    }

    @Test func missingArgumentIsAUsageErrorNamingIt() async throws {
        let sandbox = try Sandbox()
        try await withMockd(["--quiet"], sandbox: sandbox) { mockd in
            let run = try condtest(["eval", Self.sloganID, "rollout.io"], server: mockd.url, sandbox: sandbox)
            #expect(run.status == 64)
            #expect(run.stderr == "condtest: the condition takes 2 arguments, got 1\n")
        }
    }

    @Test func explainShowsWhy() async throws {
        let sandbox = try Sandbox()
        try await withMockd(["--quiet"], sandbox: sandbox) { mockd in
            let run = try condtest(["explain", Self.containsID, "rollout.io"], server: mockd.url, sandbox: sandbox)
            #expect(run.status == 1)
            #expect(run.stdout == """
                and: false
                  ne(arg1 = "rollout.io", "rollout.io"): false
                  containsString(arg1, "ro"): skipped

                """)
        }
    }

    @Test func batchStreamsOneLinePerInputLine() async throws {
        let sandbox = try Sandbox()
        try await withMockd(["--quiet"], sandbox: sandbox) { mockd in
            let run = try condtest(["eval", Self.sloganID, "--batch"],
                                   stdin: "rollout.io\tcontrol your production\nrollout.io\tx\n",
                                   server: mockd.url, sandbox: sandbox)
            #expect(run.status == 0)
            #expect(run.stdout == "true\nfalse\n")
        }
    }

    @Test func localFileAndExpressionNeedNoServer() throws {
        let sandbox = try Sandbox()
        let file = try sandbox.write("cond.json", try String(contentsOfFile: Binaries.dataDirectory + "/conditions/004.json", encoding: .utf8))
        let noServer = "http://127.0.0.1:9"
        let fromFile = try condtest(["eval", "-f", file, "robot"], server: noServer, sandbox: sandbox)
        #expect(fromFile.status == 0)
        let fromStdin = try condtest(["eval", "-f", "-", "rollout.io"],
                                     stdin: #"{"op":"eq","args":[{"type":"arg","value":1},{"type":"string","data":"rollout.io"}]}"#,
                                     server: noServer, sandbox: sandbox)
        #expect(fromStdin.status == 0)
        let fromExpression = try condtest(["eval", "-e", #"endsWith(arg1, ".io")"#, "x.io"], server: noServer, sandbox: sandbox)
        #expect(fromExpression.stdout == "true\n")
    }

    @Test func fmtRoundTrips() throws {
        let sandbox = try Sandbox()
        let text = #"and(ne(arg1, "rollout.io"), containsString(arg1, "ro"))"#
        let json = try condtest(["fmt"], stdin: text, server: "http://127.0.0.1:9", sandbox: sandbox)
        #expect(json.status == 0)
        let back = try condtest(["fmt"], stdin: json.stdout, server: "http://127.0.0.1:9", sandbox: sandbox)
        #expect(back.stdout == text + "\n")
        let same = try condtest(["fmt", "--to", "text"], stdin: text, server: "http://127.0.0.1:9", sandbox: sandbox)
        #expect(same.stdout == text + "\n")
    }

    @Test func opsListsTheRegistry() throws {
        let sandbox = try Sandbox()
        let run = try condtest(["ops"], server: "http://127.0.0.1:9", sandbox: sandbox)
        let names = run.lines.map { $0.split(separator: "\t")[0] }
        #expect(names == ["eq", "ne", "containsString", "startsWith", "endsWith", "and", "or", "not"])
    }

    @Test func badInputIsExit65WithOneLine() throws {
        let sandbox = try Sandbox()
        let cases: [([String], String?, String)] = [
            (["eval", "-e", #"startWith(arg1, "x")"#, "a"], nil,
             #"condtest: -e: column 1: unknown operator "startWith" (did you mean "startsWith"?)"#),
            (["eval", "-f", "-", "a"], "{not json", "condtest: stdin: not valid JSON"),
            (["eval", "-f", "-", "a"], #"{"op":"and","args":[{"type":"string","value":"x"}]}"#,
             #"condtest: stdin: args[0]: "and" takes conditions, found a string value"#),
            (["eval", "-f", "-", "a"], #"{"op":"eq","args":[{"type":"arg","value":0},{"type":"string","value":"x"}]}"#,
             "condtest: stdin: args[0].value: argument numbers run from 1 to 10000, found 0"),
            (["eval", "-f", "-", "a"], String(repeating: #"{"op":"not","args":["#, count: 100_000), "condtest: stdin: nested deeper than 200 levels"),
            (["eval", "-e", #"eq(arg1, "x")"#, "--batch"], "x\u{0}y\n", "condtest: line 1: NUL byte in the arguments"),
        ]
        for (arguments, stdin, message) in cases {
            let run = try condtest(arguments, stdin: stdin, server: "http://127.0.0.1:9", sandbox: sandbox)
            #expect(run.status == 65, "\(arguments)")
            #expect(run.stderr == message + "\n", "\(arguments)")
            #expect(!run.signaled)
        }
    }

    @Test func invalidUTF8ArgumentIsRefused() throws {
        let sandbox = try Sandbox()
        // Process takes Strings; a raw invalid byte needs the shell.
        let run = try runTool("/bin/sh", ["-c", "exec \"$0\" eval -e 'eq(arg1, \"x\")' \"$(printf '\\377')\"", Binaries.path("condtest")],
                              sandbox: sandbox)
        #expect(run.status == 65)
        #expect(run.stderr == "condtest: command-line argument 4 is not valid UTF-8\n")
        // Every tool, every argument: refused, never sent with U+FFFD (issue 46).
        for (tool, command) in [("blogctl", "read"), ("devsync", "show"), ("condtest", "show"), ("passcode", "fetch --user")] {
            let other = try runTool("/bin/sh", ["-c", "exec \"$0\" \(command) \"$(printf 'id\\377')\"", Binaries.path(tool)], sandbox: sandbox)
            #expect(other.status == 65, "\(tool): \(other.stderr)")
            #expect(other.stderr.hasSuffix("is not valid UTF-8\n"), "\(tool): \(other.stderr)")
        }
    }

    @Test func serverFailuresHaveTheirOwnStatuses() async throws {
        let sandbox = try Sandbox()
        let down = try condtest(["list", "--retries", "0"], server: "http://127.0.0.1:9", sandbox: sandbox)
        #expect(down.status == 69)
        #expect(down.stderr == "condtest: connection refused (http://127.0.0.1:9/conditions)\n")

        try await withMockd(["--quiet"], sandbox: sandbox) { mockd in
            let missing = try condtest(["show", "5b8f1c3e9d1a4c0012a3bfff"], server: mockd.url, sandbox: sandbox)
            #expect(missing.status == 66)
            #expect(missing.stderr.hasPrefix("condtest: no condition \"5b8f1c3e9d1a4c0012a3bfff\"; did you mean 5b8f1c3e9d1a4c0012a3b001"))
            // An opaque id, sent as one encoded path segment: the server has no such condition.
            let traversal = try condtest(["show", "../../etc/passwd"], server: mockd.url, sandbox: sandbox)
            #expect(traversal.status == 66, "\(traversal.stderr)")
        }
        try await withMockd(["--quiet", "--failure-rate", "1"], sandbox: sandbox) { mockd in
            let failing = try condtest(["list", "--retries", "1"], server: mockd.url, sandbox: sandbox)
            #expect(failing.status == 69)
            #expect(failing.stderr == "condtest: HTTP 500: Internal Server Error (\(mockd.url)/conditions)\n")
        }
    }

    @Test func aResponseThatIsNotJSONIsExit76AndABadConditionIs65() async throws {
        let sandbox = try Sandbox()
        let data = sandbox.root + "/data"
        try FileManager.default.createDirectory(atPath: data + "/conditions", withIntermediateDirectories: true)
        // A record whose condition is ill-formed, and one whose body is not JSON after the header.
        _ = try sandbox.write("data/conditions/bad.json",
                              #"{"_id":"bad","name":"bad","condition":{"op":"startWith","args":[]}}"#)
        try await withMockd(["--quiet", "--data", data], sandbox: sandbox) { mockd in
            let bad = try condtest(["eval", "bad", "x"], server: mockd.url, sandbox: sandbox)
            #expect(bad.status == 65)
            #expect(bad.stderr == #"condtest: condition bad: condition.op: unknown operator "startWith" (did you mean "startsWith"?)"# + "\n")
        }
        // A proxy's error page: not JSON at all.
        let stub = try StubServer(response: "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 17\r\n\r\n<html>oops</html>")
        defer { stub.stop() }
        let html = try condtest(["show", "abc"], server: stub.url, sandbox: sandbox)
        #expect(html.status == 76)
        #expect(html.stderr == "condtest: unexpected response, not valid JSON (\(stub.url)/conditions/abc)\n")
        let list = try condtest(["list"], server: stub.url, sandbox: sandbox)
        #expect(list.status == 76)
    }

    @Test func verboseShowsRequestAndStatusLines() async throws {
        let sandbox = try Sandbox()
        try await withMockd(["--quiet"], sandbox: sandbox) { mockd in
            let run = try condtest(["list", "-v"], server: mockd.url, sandbox: sandbox)
            #expect(run.stderr.hasPrefix("> GET \(mockd.url)/conditions\n< 200 OK ("))
        }
    }

    @Test func serverComesFromFlagThenToolVariableThenToolbox() async throws {
        let sandbox = try Sandbox()
        try await withMockd(["--quiet"], sandbox: sandbox) { mockd in
            let viaToolbox = try runTool("condtest", ["list"], sandbox: sandbox, environment: ["TOOLBOX_SERVER": mockd.url])
            #expect(viaToolbox.status == 0)
            let flagWins = try runTool("condtest", ["list", "--server", mockd.url, "--retries", "0"], sandbox: sandbox,
                                       environment: ["CONDTEST_SERVER": "http://127.0.0.1:9"])
            #expect(flagWins.status == 0)
        }
    }

    @Test func theSameSeedGivesTheSameStatuses() async throws {
        let sandbox = try Sandbox()
        func statuses() async throws -> [Int] {
            try await withMockd(["--quiet", "--failure-rate", "0.5", "--seed", "7"], sandbox: sandbox) { mockd in
                var result: [Int] = []
                for index in 0..<30 {
                    let path = index % 2 == 0 ? "/conditions" : "/conditions/\(Self.equalsID)"
                    result.append(try await fetchStatus(mockd.url, path))
                }
                return result
            }
        }
        let first = try await statuses()
        let second = try await statuses()
        #expect(first == second)
        #expect(first.contains(500))
        #expect(first.contains(200))
    }
}
