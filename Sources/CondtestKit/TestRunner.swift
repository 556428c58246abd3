#if canImport(Glibc)
import Glibc
#endif
import CoreKit

/// `condtest test`: reads case files line by line, evaluates each case with its condition
/// (each fetched or parsed once, compiled once), and tells a `TestReporter` what passed and
/// what failed. TSV cases are evaluated in place, as `eval --batch` evaluates its lines.
public final class TestRunner {
    /// Fetches a server condition by id.
    public typealias Fetch = (String) async throws(ToolError) -> ConditionRecord

    /// One condition the run uses.
    final class Target {
        let key: String
        let keyBytes: [UInt8]
        let record: ConditionRecord
        let evaluator: Evaluator
        let outcomes: NodeOutcomes?
        /// Where a TSV case's arguments are lent, in place in the line.
        let texts: UnsafeMutableBufferPointer<Text>

        init(key: String, record: ConditionRecord, coverage: Bool) {
            self.key = key
            self.keyBytes = Array(key.utf8)
            self.record = record
            if coverage {
                let outcomes = NodeOutcomes(nodes: record.condition.nodes.count)
                self.outcomes = outcomes
                evaluator = Evaluator(record.condition, argumentCount: record.argumentCount, recordingInto: outcomes)
            } else {
                outcomes = nil
                evaluator = Evaluator(record.condition, argumentCount: record.argumentCount)
            }
            texts = .allocate(capacity: max(record.argumentCount, 1))
            texts.initialize(repeating: Text(start: nil, count: 0))
        }

        deinit { texts.deallocate() }

        @inline(__always)
        func matches(_ bytes: Text) -> Bool { ByteKeyTable<Target>.equal(keyBytes, bytes) }
    }

    private let fetch: Fetch
    private let reporter: any TestReporter
    private let coverage: Bool
    /// Keyed by bytes: condition ids are opaque, and `é` and `e` + U+0301 are two of them.
    private var targets: [[UInt8]: Target] = [:]
    /// The same targets by their key's bytes, so that a TSV line finds its condition
    /// without making a String of the field.
    private var targetsByBytes = ByteKeyTable<Target>()
    private var targetOrder: [Target] = []
    private var last: Target?
    public private(set) var passed = 0
    public private(set) var failed = 0

    public init(coverage: Bool, reporter: any TestReporter, fetch: @escaping Fetch) {
        self.coverage = coverage
        self.reporter = reporter
        self.fetch = fetch
    }

    /// Runs every case read from `fd`; `file` names it in results and errors.
    public func run(fd: Int32, file: String) async throws(ToolError) {
        do {
            try await runCases(LineReader(fd: fd, name: file), file: file)
        } catch {
            reporter.abort(error)
            throw error
        }
    }

    /// The totals so far, with coverage when it was asked for.
    public func summary(minimum: Double? = nil) -> TestSummary {
        let report = coverage ? CoverageReport(conditions: targetOrder.map { target in
            CoverageReport.ConditionCoverage(condition: target.key, name: target.record.name,
                                             record: target.record.condition, outcomes: target.outcomes!)
        }) : nil
        return TestSummary(passed: passed, failed: failed, coverage: report, minimum: minimum)
    }

    /// Ends the run: tells the reporter the totals and returns them.
    @discardableResult
    public func finish(minimum: Double? = nil) -> TestSummary {
        let summary = summary(minimum: minimum)
        reporter.finish(summary)
        return summary
    }

    private func runCases(_ reader: LineReader, file: String) async throws(ToolError) {
        while let line = try reader.next() {
            let number = reader.lineNumber
            let parsed: CaseLine.Parsed?
            do throws(CaseFileError) {
                parsed = try CaseLine.parse(line, number: number)
            } catch {
                throw error.toolError(file: file)
            }
            switch parsed {
            case nil:
                continue
            case .tsv(let borrowed)?:
                let target: Target
                if let last, last.matches(borrowed.condition) {
                    target = last
                } else if let known = targetsByBytes.value(for: borrowed.condition) {
                    target = known
                    last = known
                } else {
                    // A field equal to a known key is valid; a new one is checked before use.
                    if let problem = TabFields.problem(in: borrowed.condition) {
                        throw CaseFileError(line: number, column: 1, problem: problem).toolError(file: file)
                    }
                    target = try await resolve(String(decoding: borrowed.condition, as: UTF8.self), inline: nil,
                                               file: file, line: number, column: 1)
                    last = target
                }
                try evaluate(borrowed, target: target, file: file, line: number)
            case .json(let testCase, let conditionColumn, let argumentsColumn)?:
                let target = try await resolve(testCase.conditionKey, inline: testCase.inlineCondition,
                                               file: file, line: number, column: conditionColumn)
                try evaluate(testCase, target: target, file: file, line: number, argumentsColumn: argumentsColumn)
            }
        }
    }

    @inline(__always)
    private func evaluate(_ borrowed: CaseLine.Borrowed, target: Target, file: String, line: Int) throws(ToolError) {
        let wanted = target.record.argumentCount
        if let arguments = borrowed.arguments, let problem = TabFields.problem(in: arguments) {
            throw CaseFileError(line: line, column: borrowed.argumentsColumn, problem: problem).toolError(file: file)
        }
        let (found, more) = borrowed.arguments.map { TabFields.split($0, into: target.texts, wanted: wanted) } ?? (0, false)
        guard found == wanted, !more else {
            // Counted only here, off the hot path: found < wanted or more fields, so a problem.
            let given = borrowed.arguments.map { $0.count(where: { $0 == 0x09 }) + 1 } ?? 0
            let problem = ArgumentCheck.problem(wanted: wanted, given: given) ?? "wrong number of arguments"
            throw CaseFileError(line: line, column: borrowed.argumentsColumn, problem: problem).toolError(file: file)
        }
        let actual = target.evaluator.evaluate(UnsafeBufferPointer(target.texts))
        if actual == borrowed.expect {
            passed += 1
            if reporter.listsPasses {
                reporter.passed(CaseIdentity(file: file, line: line, name: nil, conditionKey: target.key,
                                             arguments: Self.strings(target.texts, wanted)))
            }
        } else {
            fail(target, arguments: Self.strings(target.texts, wanted), expected: borrowed.expect, name: nil, file: file, line: line)
        }
    }

    private func evaluate(_ testCase: TestCase, target: Target, file: String, line: Int, argumentsColumn: Int) throws(ToolError) {
        let wanted = target.record.argumentCount
        if let problem = ArgumentCheck.problem(wanted: wanted, given: testCase.arguments.count) {
            throw CaseFileError(line: line, column: argumentsColumn, problem: problem).toolError(file: file)
        }
        let actual = ArgumentBytes(testCase.arguments).withTexts { target.evaluator.evaluate($0) }
        if actual == testCase.expect {
            passed += 1
            if reporter.listsPasses {
                reporter.passed(CaseIdentity(file: file, line: line, name: testCase.name, conditionKey: target.key,
                                             arguments: testCase.arguments))
            }
        } else {
            fail(target, arguments: testCase.arguments, expected: testCase.expect, name: testCase.name, file: file, line: line)
        }
    }

    private func fail(_ target: Target, arguments: [String], expected: Bool, name: String?, file: String, line: Int) {
        failed += 1
        let condition = target.record.condition
        reporter.failed(TestFailure(
            identity: CaseIdentity(file: file, line: line, name: name, conditionKey: target.key, arguments: arguments),
            name: name, condition: target.key, conditionName: target.record.name, text: TextSyntax.format(condition),
            arguments: arguments, expected: expected, explanation: Explanation.of(condition, arguments: arguments)))
    }

    static func strings(_ texts: UnsafeMutableBufferPointer<Text>, _ count: Int) -> [String] {
        texts.prefix(count).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The condition `key` names, fetched, parsed or taken from `inline` once for the run.
    private func resolve(_ key: String, inline: Condition?, file: String, line: Int, column: Int) async throws(ToolError) -> Target {
        if let known = targets[Array(key.utf8)] { return known }
        let record: ConditionRecord
        if let inline, let inlineRecord = try? ConditionRecord(name: "", id: "", condition: inline) {
            // Without an "arguments" count, a record of a valid condition cannot be refused.
            record = inlineRecord
        } else if TestCase.isExpression(key) {
            do {
                record = try ConditionRecord(name: "", id: "", condition: TextSyntax.parse(String(key.dropFirst())))
            } catch {
                // The parser counts scalars from the expression's start, after the "="; a case
                // file's columns are bytes.
                var at = column
                if error.path.hasPrefix("column "), let inner = Int(error.path.dropFirst(7)) {
                    at = Self.byteColumn(ofScalar: inner, in: key, from: column)
                }
                throw CaseFileError(line: line, column: at, problem: error.problem).toolError(file: file)
            }
        } else {
            do {
                record = try await fetch(key)
            } catch {
                switch error {
                case .notFound(let what): throw .notFound(what: "\(file):\(line): \(what)")
                case .missing(let text): throw .missing("\(file):\(line): \(text)")
                case .usage(let text): throw .usage("\(file):\(line): \(text)")
                case .badData(let problem): throw .badData("\(file):\(line): \(problem)")
                default: throw error
                }
            }
        }
        let target = Target(key: key, record: record, coverage: coverage)
        targets[Array(key.utf8)] = target
        targetsByBytes.insert(target, for: target.keyBytes)
        targetOrder.append(target)
        return target
    }

    /// The byte column of the 1-based scalar column `scalar` of the expression in `key`
    /// (`=EXPR`, whose `=` is at byte column `start`): the parser counts scalars, a case file's
    /// columns count bytes.
    static func byteColumn(ofScalar scalar: Int, in key: String, from start: Int) -> Int {
        let before = key.unicodeScalars.dropFirst().prefix(max(scalar - 1, 0))
        return start + 1 + before.reduce(0) { $0 + UTF8.width($1) }
    }
}
