// The condition text syntax. Property: whatever parses formats to text that parses back
// to the same condition (parse(format(c)) == c).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    guard let condition = try? TextSyntax.parse(text) else { return 0 }
    let formatted = TextSyntax.format(condition)
    guard let again = try? TextSyntax.parse(formatted), again == condition else {
        fatalError("round trip failed: \(text.debugDescription) -> \(formatted.debugDescription)")
    }
    return 0
}
