// Every model a server's JSON is decoded into: blog post metadata and posts, condition
// summaries and devices. Property: no crash, no hang; errors are one line.
import FoundationEssentials

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Data(UnsafeBufferPointer(start: data, count: size))
    func check<T: Decodable>(_ type: T.Type) {
        do { _ = try JSONCoding.decode(type, from: bytes) } catch {
            let line = StandardError.bytes(of: "tool: " + error.description)
            if line.dropLast().contains(where: { $0 < 0x20 || $0 == 0x7F }) { fatalError("control byte in an error line") }
        }
    }
    check([PostMetadata].self)
    check(Post.self)
    check([ConditionSummary].self)
    check([ServerDevice].self)
    return 0
}
