import FoundationEssentials

// `GET /post/:id` read as it arrives (issue 37). Properties: any input is taken or refused
// without a crash; the body and members read are the same however the input is split into
// pieces; a body taken is what Foundation's decoder reads for that member, when it reads one.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    final class Sink { var bytes: [UInt8] = [] }
    func parse(split: Int) -> (body: [UInt8], members: [String: [UInt8]])? {
        let sink = Sink()
        var parser = PostStream { sink.bytes.append(contentsOf: $0) }
        var start = 0
        do {
            while start < bytes.count {
                let end = min(start + split, bytes.count)
                try bytes[start..<end].withUnsafeBufferPointer { piece throws(PostStream.Failure) in try parser.feed(piece) }
                start = end
            }
            try parser.finish()
        } catch {
            return nil
        }
        return (sink.bytes, parser.members)
    }
    let whole = parse(split: Int.max)
    for split in [1, 2, 7] {
        let pieces = parse(split: split)
        guard pieces?.body == whole?.body, pieces?.members == whole?.members else { fatalError("split \(split) reads differently") }
    }
    struct BodyOnly: Decodable { let body: String }
    if let whole, let decoded = try? JSONDecoder().decode(BodyOnly.self, from: Data(bytes)) {
        guard Array(decoded.body.utf8) == whole.body else { fatalError("the body differs from the decoder's") }
    }
    return 0
}
