import CoreKit

/// `condtest eval --batch`: one tab-separated argument tuple per input line, one `true` or
/// `false` line out per line in, in order. Lines are evaluated in place (`LineReader`), so
/// memory stays flat however long the input is.
public struct BatchEvaluator {
    public let evaluator: Evaluator

    public init(_ evaluator: Evaluator) { self.evaluator = evaluator }

    /// Reads `fd` to the end, writing one result line per input line; fields beyond the
    /// condition's arguments are ignored, as awk and cut would. Returns the number of lines.
    /// A malformed line stops the run with a `badData` error naming its number, after the
    /// results of every line before it have been written.
    @discardableResult
    public func run(input fd: Int32, output: inout StandardOutput) throws(ToolError) -> Int {
        let reader = LineReader(fd: fd, name: "standard input")
        let wanted = evaluator.argumentCount
        let texts = UnsafeMutableBufferPointer<Text>.allocate(capacity: max(wanted, 1))
        texts.initialize(repeating: Text(start: nil, count: 0))
        defer {
            texts.deallocate()
            output.flush()
        }
        while let line = try reader.next() {
            if let problem = TabFields.problem(in: line) { throw .badData("line \(reader.lineNumber): \(problem)") }
            let (found, _) = TabFields.split(line, into: texts, wanted: wanted)
            if let problem = ArgumentCheck.problem(wanted: wanted, given: found, extrasIgnored: true) {
                throw .badData("line \(reader.lineNumber): \(problem)")
            }
            let result = evaluator.evaluate(UnsafeBufferPointer(texts))
            output.write(result ? "true\n" : "false\n")
            if output.lineBuffered { output.flush() }
        }
        return reader.lineNumber
    }
}
