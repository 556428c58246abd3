import ArgumentParser
import CondtestKit
import ToolboxKit

extension Condtest {
    struct Test: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "test",
            abstract: "Check conditions against a table of cases: expected true or false for given arguments.",
            discussion: """
                A case file (- is stdin) holds a case per line, in either form:
                  TSV:  CONDITION<TAB>true|false<TAB>ARG1<TAB>ARG2...
                  JSON: {"condition": ID, "args": ["a"], "expect": true, "name": "optional"}
                CONDITION is a server id or = and a text expression (=eq(arg1, "x")); a JSON \
                condition is an id, a text expression (it holds "(") or ConditionData. Blank \
                lines and lines starting with # are skipped. Each server condition is fetched \
                once; a case must give exactly the arguments its condition takes.

                Every failing case is shown with its file:line, the condition in text form, the \
                arguments, the expected and actual result and the explain tree; the last line \
                is N passed, M failed. --format tap writes TAP version 14 (tap13 for consumers \
                such as prove that know only 13), --format junit JUnit XML for CI, --json one \
                JSON document.

                --coverage lists, for each condition, the operator nodes that were never true \
                or never false across the cases, at their column in the text form; \
                --coverage-min fails the run below that share of node outcomes.

                Exit status: 0 all cases passed (and coverage reached --coverage-min), 1 a case \
                failed or coverage fell short, 65 a malformed case or condition \
                (FILE:LINE:COLUMN: what was expected), 66 a case file or condition id not found, \
                69 the server unreachable.

                Examples:
                  condtest test cases.tsv
                  printf '=eq(arg1, "x")\\ttrue\\tx\\n' | condtest test -
                  condtest test --coverage --coverage-min 90 cases/*.tsv
                  condtest test --format junit cases.jsonl > report.xml
                """)

        enum Format: String, ExpressibleByArgument, CaseIterable { case text, tap, tap13, junit }

        @Option(help: ArgumentHelp("The report: text, tap (TAP 14), tap13 or junit.", valueName: "format"))
        var format: Format = .text

        @Flag(help: "Report operator nodes never true or never false across the cases.")
        var coverage = false

        @Option(name: .customLong("coverage-min"),
                help: ArgumentHelp("Fail below this share of node outcomes covered (implies --coverage).", valueName: "percent"))
        var coverageMin: Double?

        @OptionGroup var common: CommonOptions

        @Argument(help: ArgumentHelp("Case files; - is stdin.", valueName: "file"), completion: .file())
        var files: [String] = []

        func validate() throws {
            if files.isEmpty { throw ValidationError("give at least one case file (- for stdin)") }
            if files.filter({ $0 == "-" }).count > 1 { throw ValidationError("stdin (-) can be read once") }
            if common.json && format != .text { throw ValidationError("--json and --format \(format.rawValue) are two reports; give one") }
            if let coverageMin, !(0...100).contains(coverageMin) { throw ValidationError("--coverage-min must be between 0 and 100") }
        }

        func run() async throws {
            let session = TestSession(files: files, report: report, coverage: coverage, minimum: coverageMin, quiet: common.quiet)
            let verdict = try await session.run { id throws(ToolError) in try await fetch(id) }
            for message in verdict.messages { Tool.condtest.say(message) }
            if !verdict.passed { throw ExitCode(1) }
        }

        private var report: TestSession.Report {
            if common.json { return .json }
            switch format {
            case .text: return .text(colour: Terminal.colorEnabled())
            case .tap: return .tap(version: 14)
            case .tap13: return .tap(version: 13)
            case .junit: return .junit
            }
        }

        /// A server condition, fetched with a client made on first use and kept for the run.
        private func fetch(_ id: String) async throws(ToolError) -> ConditionRecord {
            do {
                return try await common.withClient(tool: .condtest, waitSpinner: false) { client in
                    try await ConditionLoader.load(.server(id: id), client: client)
                }
            } catch let error as ToolError {
                throw error
            } catch {
                throw .bug(String(describing: error))
            }
        }
    }
}
