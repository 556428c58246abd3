// Condition JSON from a server or `-f`: decode; a condition that decodes is evaluated and
// explained with arguments taken from the same input. Property: no crash, no hang.
import FoundationEssentials

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Data(UnsafeBufferPointer(start: data, count: size))
    guard let record = try? ConditionJSON.decodeRecordOrCondition(bytes, fallbackName: "fuzz") else { return 0 }
    // As `condtest eval` does, give the evaluator every argument the condition names
    // (at most Condition.maximumArgument).
    let evaluator = Evaluator(record.condition, argumentCount: record.argumentCount)
    let seed = ["", "a", String(decoding: bytes.prefix(16), as: UTF8.self)]
    let arguments = (0..<max(evaluator.argumentCount, 3)).map { seed[$0 % 3] }
    _ = evaluator.evaluate(arguments)
    _ = Explanation.of(record.condition, arguments: arguments).render()
    return 0
}
