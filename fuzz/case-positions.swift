// condtest test's case lines. Property: a malformed line is reported at a byte column inside
// the line or just past its end, never beyond; so is an expression's syntax error, whose
// parser counts scalars.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    var bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let newline = bytes.firstIndex(of: 0x0A) { bytes.removeSubrange(newline...) }
    let count = bytes.count
    let parsed: CaseLine.Parsed?
    do {
        parsed = try bytes.withUnsafeMutableBufferPointer { buffer throws(CaseFileError) in try CaseLine.parse(Text(buffer), number: 1) }
    } catch {
        guard (1...(count + 1)).contains(error.column) else { fatalError("column \(error.column) of a \(count)-byte line: \(error)") }
        return 0
    }
    var key: String?
    var start = 1
    switch parsed {
    case .tsv(let borrowed)?:
        guard (1...(count + 1)).contains(borrowed.argumentsColumn) else { fatalError("arguments at \(borrowed.argumentsColumn) of \(count)") }
        key = String(decoding: borrowed.condition, as: UTF8.self)
    case .json(let testCase, let conditionColumn, let argumentsColumn)?:
        guard (1...(count + 1)).contains(conditionColumn), (1...(count + 1)).contains(argumentsColumn) else {
            fatalError("columns \(conditionColumn), \(argumentsColumn) of \(count)")
        }
        key = testCase.conditionKey
        start = conditionColumn - 1
    case nil:
        return 0
    }
    guard let key, TestCase.isExpression(key), case .tsv? = parsed else { return 0 }
    do {
        _ = try TextSyntax.parse(String(key.dropFirst()))
    } catch {
        guard error.path.hasPrefix("column "), let inner = Int(error.path.dropFirst(7)) else { return 0 }
        let column = TestRunner.byteColumn(ofScalar: inner, in: key, from: start)
        guard (2...(key.utf8.count + 1)).contains(column) else { fatalError("expression error at \(column) of \(key.utf8.count) bytes") }
    }
    return 0
}
