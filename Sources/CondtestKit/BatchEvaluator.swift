#if canImport(Glibc)
import Glibc
#endif
import ToolboxKit

/// `condtest eval --batch`: one tab-separated argument tuple per input line, one `true` or
/// `false` line out per line in, in order. Reads in large blocks and evaluates in place, so
/// memory stays flat however long the input is.
public struct BatchEvaluator {
    public let evaluator: Evaluator
    /// The longest line accepted; a longer one is an error rather than unbounded memory.
    public static let maximumLineLength = 64 << 20

    public init(_ evaluator: Evaluator) { self.evaluator = evaluator }

    /// Reads `fd` to the end, writing one result line per input line; fields beyond the
    /// condition's arguments are ignored. Returns the number of
    /// lines. A malformed line stops the run with a `badData` error naming its number, after
    /// the results of every line before it have been written.
    @discardableResult
    public func run(input fd: Int32, output: inout StandardOutput) throws(ToolError) -> Int {
        var capacity = 1 << 20
        var buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        defer { buffer.deallocate() }
        var start = 0
        var end = 0
        var lineNumber = 0
        var texts = [Text](repeating: Text(start: nil, count: 0), count: max(evaluator.argumentCount, 1))

        while true {
            // Evaluate every complete line in the buffer.
            while start < end, let newline = memchr(buffer + start, 0x0A, end - start) {
                let lineEnd = buffer.distance(to: newline.assumingMemoryBound(to: UInt8.self))
                lineNumber += 1
                let result = try evaluate(buffer, start, lineEnd, lineNumber, &texts)
                output.write(result ? "true\n" : "false\n")
                if output.lineBuffered { output.flush() }
                start = lineEnd + 1
            }
            // Keep the partial line, then read more after it.
            if start > 0 {
                if end > start { memmove(buffer, buffer + start, end - start) }
                end -= start
                start = 0
            }
            if end == capacity {
                guard capacity < Self.maximumLineLength else {
                    throw .badData("line \(lineNumber + 1): longer than \(Self.maximumLineLength >> 20) MiB")
                }
                let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity * 2)
                bigger.update(from: buffer, count: end)
                buffer.deallocate()
                buffer = bigger
                capacity *= 2
            }
            let count = read(fd, buffer + end, capacity - end)
            if count < 0 {
                if errno == EINTR { continue }
                throw .io(path: "standard input", reason: String(cString: strerror(errno)))
            }
            if count == 0 {
                if end > 0 {
                    lineNumber += 1
                    let result = try evaluate(buffer, 0, end, lineNumber, &texts)
                    output.write(result ? "true\n" : "false\n")
                }
                output.flush()
                return lineNumber
            }
            end += count
        }
    }

    /// Splits bytes `from..<to` (a line without its newline) at tabs and evaluates it.
    @inline(__always)
    private func evaluate(_ buffer: UnsafeMutablePointer<UInt8>, _ from: Int, _ to: Int, _ lineNumber: Int,
                          _ texts: inout [Text]) throws(ToolError) -> Bool {
        var lineEnd = to
        if lineEnd > from, buffer[lineEnd - 1] == 0x0D { lineEnd -= 1 }  // CRLF input
        let line = Text(start: buffer + from, count: lineEnd - from)
        try Self.validate(line, lineNumber)
        let wanted = evaluator.argumentCount
        var field = 0
        var fieldStart = 0
        if wanted > 0 {
            // Fields past the ones the condition uses are ignored, as awk and cut would.
            var fieldEnd = line.count
            for index in 0..<line.count where line[index] == 0x09 {
                if field == wanted - 1 {
                    fieldEnd = index
                    break
                }
                texts[field] = Text(rebasing: line[fieldStart..<index])
                field += 1
                fieldStart = index + 1
            }
            guard field == wanted - 1 else {
                throw .badData("line \(lineNumber): missing arg\(field + 2) (the condition takes \(wanted) tab-separated arguments)")
            }
            texts[field] = Text(rebasing: line[fieldStart..<fieldEnd])
        }
        return texts.withUnsafeBufferPointer { evaluator.evaluate($0) }
    }

    /// Arguments must be valid UTF-8 without NUL: the operators compare Unicode text.
    @inline(__always)
    static func validate(_ line: Text, _ lineNumber: Int) throws(ToolError) {
        var ascii = true
        for byte in line {
            if byte == 0 { throw .badData("line \(lineNumber): NUL byte in the arguments") }
            if byte >= 0x80 { ascii = false }
        }
        if !ascii, String(validating: line, as: UTF8.self) == nil {
            throw .badData("line \(lineNumber): not valid UTF-8")
        }
    }
}
