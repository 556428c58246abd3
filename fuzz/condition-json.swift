// Condition JSON from a server or `-f`: decode; a condition that decodes is evaluated and
// explained with arguments taken from the same input. Property: no crash, no hang.
import FoundationEssentials

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Data(UnsafeBufferPointer(start: data, count: size))
    guard let record = try? ConditionJSON.decodeRecordOrCondition(bytes, fallbackName: "fuzz") else { return 0 }
    let arguments = ["", "a", String(decoding: bytes.prefix(16), as: UTF8.self)]
    _ = Evaluator(record.condition).evaluate(arguments)
    _ = Explanation.of(record.condition, arguments: arguments).render()
    return 0
}
