import Foundation
import Testing
@testable import CondtestKit
import ToolboxKit
import TestSupport

/// The reports of `condtest test`, and TAP and JUnit read by real consumers: tappy (TAP 14),
/// Perl's prove (TAP 13) and xmllint against JUnit's structure.
@Suite struct ReportTests {
    static let fixtures = String(#filePath[..<#filePath.lastIndex(of: "/")!]) + "/Fixtures"

    /// Two files: a pass and a failure with hostile text in the first, a named pass in the second.
    func report(_ make: (@escaping (String) -> Void) -> any TestReporter, coverage: Bool = false) async throws -> String {
        var text = ""
        let reporter = make { text += $0 }
        let record = try ConditionRecord(name: "Evil \u{1B}]0;PWNED\u{07} <&> \"name\" #1", id: "c1",
                                         condition: TextSyntax.parse(#"and(ne(arg1, "rollout.io"), containsString(arg1, "ro"))"#))
        let runner = TestRunner(coverage: coverage, reporter: reporter) { _ throws(ToolError) in record }
        let first = CaseFile("c1\ttrue\trobot\nc1\tfalse\trobot # <b>&\u{1B}[31m\u{202E}\n")
        try await runner.run(fd: first.fd, file: "one.tsv")
        let second = CaseFile(#"{"condition": "=eq(arg1, \"x\")", "args": ["x"], "expect": true, "name": "x is x"}"# + "\n")
        try await runner.run(fd: second.fd, file: "two.jsonl")
        runner.finish()
        return text
    }

    /// Runs `command` with `input` on stdin; returns stdout and the exit status.
    func consume(_ command: [String], input: String) throws -> (String, Int32) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = command
        let stdin = Pipe(), stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stdout
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (String(decoding: output, as: UTF8.self), process.terminationStatus)
    }

    @Test func textShowsFailuresWithTheExplainTreeAndEndsWithTheTotals() async throws {
        let text = try await report { TextTestReport(write: $0) }
        #expect(text == """
            FAIL one.tsv:2
              condition: c1 (Evil ]0;PWNED <&> "name" #1)
              as text:   and(ne(arg1, "rollout.io"), containsString(arg1, "ro"))
              arguments: "robot # <b>&\\u001b[31m\\u202e"
              expected:  false
              actual:    true
                and: true
                  ne(arg1 = "robot # <b>&\\u001b[31m\\u202e", "rollout.io"): true
                  containsString(arg1 = "robot # <b>&\\u001b[31m\\u202e", "ro"): true

            2 passed, 1 failed

            """)
        #expect(!text.contains("\u{1B}") && !text.contains("\u{202E}"))
    }

    @Test func tap14IsReadByTappy() async throws {
        let tap = try await report { TAPReport(version: 14, write: $0) }
        #expect(tap.hasPrefix("TAP version 14\nok 1 - one.tsv:1 c1 \"robot\"\nnot ok 2 - one.tsv:2 c1 \"robot \\# <b>&"))
        #expect(tap.hasSuffix("ok 3 - two.jsonl:1 x is x\n1..3\n"))
        #expect(!tap.contains("\u{1B}") && !tap.contains("\u{202E}"))
        let (read, status) = try consume(["/usr/bin/python3", Self.fixtures + "/tap-check.py"], input: tap)
        #expect(status == 0, "\(read)")
        let lines = read.split(separator: "\n")
        #expect(lines.first == "version 14")
        #expect(lines.last == "plan 3")
        #expect(lines.contains { $0.hasPrefix("not ok 2 ") && $0.hasSuffix(" actual args at condition expected explain name text") }, "\(read)")
        #expect(lines.filter { $0.hasPrefix("ok ") }.count == 2)
    }

    @Test func tap13IsReadByProve() async throws {
        let tap = try await report { TAPReport(version: 13, write: $0) }
        #expect(tap.hasPrefix("TAP version 13\n"))
        let (read, status) = try consume(["prove", "-v", "-e", "cat", "/dev/stdin"], input: tap)
        // prove fails the run (one case failed), and reads every line: no parse errors.
        #expect(status == 1)
        #expect(read.contains("Failed 1/3 subtests"), "\(read)")
        #expect(!read.contains("Parse errors"), "\(read)")
    }

    @Test func aStoppedRunBailsOut() {
        var text = ""
        let tap = TAPReport(write: { text += $0 })
        tap.passed(CaseIdentity(file: "f", line: 1, name: nil, conditionKey: "c", arguments: []))
        tap.abort(.badData("f:2:1: expected true or false, found nothing"))
        #expect(text == "TAP version 14\nok 1 - f:1 c\nBail out! f:2:1: expected true or false, found nothing\n")
    }

    @Test func junitHasTheStructureCIReadsAndConsistentCounts() async throws {
        let xml = try await report { JUnitReport(write: $0) }
        let path = TemporaryFolders.file("condtest-junit", "report.xml")
        try xml.write(toFile: path, atomically: true, encoding: .utf8)
        let (valid, status) = try consume(["xmllint", "--noout", "--schema", Self.fixtures + "/junit.xsd", path], input: "")
        #expect(status == 0, "\(valid)\n\(xml)")
        func count(_ xpath: String) throws -> String {
            try consume(["xmllint", "--xpath", xpath, path], input: "").0.trimmingCharacters(in: .newlines)
        }
        #expect(try count("count(//testcase)") == "3")
        #expect(try count("count(//failure)") == "1")
        #expect(try count("string(/testsuites/@tests)") == "3")
        #expect(try count("string(/testsuites/@failures)") == "1")
        #expect(try count("string(//testsuite[@name='one.tsv']/@tests)") == "2")
        #expect(try count("string(//testsuite[@name='two.jsonl']/@failures)") == "0")
        #expect(try count("string(//failure/@message)") == "expected false, got true")
        #expect(try count("string(//testcase[failure]/@name)").hasPrefix("line 2: c1 \"robot # <b>&"))
        #expect(!xml.contains("\u{1B}"))
    }

    @Test func junitOfAStoppedRunIsStillADocumentWithTheError() throws {
        var text = ""
        let junit = JUnitReport(write: { text += $0 })
        junit.passed(CaseIdentity(file: "f", line: 1, name: nil, conditionKey: "c", arguments: []))
        junit.abort(.badData("f:2:1: expected <true> or false"))
        #expect(text.contains(#"<testsuites name="condtest" tests="1" failures="0" errors="1">"#))
        #expect(text.contains(#"<error message="f:2:1: expected &lt;true&gt; or false" type="error"/>"#))
        #expect(text.hasSuffix("</testsuites>\n"))
    }

    @Test func jsonHasTheTotalsFailuresAndCoverage() async throws {
        let json = try await report({ JSONTestReport(write: $0) }, coverage: true)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(object["passed"] as? Int == 2 && object["failed"] as? Int == 1)
        let failure = try #require((object["failures"] as? [[String: Any]])?.first)
        #expect(failure["file"] as? String == "one.tsv" && failure["line"] as? Int == 2)
        #expect(failure["expected"] as? Bool == false && failure["actual"] as? Bool == true)
        #expect(failure["args"] as? [String] == ["robot # <b>&\u{1B}[31m\u{202E}"])
        #expect((failure["explain"] as? [String: Any])?["op"] as? String == "and")
        let coverage = try #require(object["coverage"] as? [String: Any])
        #expect(coverage["total"] as? Int == 8)
        #expect(!json.contains("\u{1B}"))
    }
}
