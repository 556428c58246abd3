// Server-sent events. Property: the events do not depend on how the stream is split into
// chunks (the input's first byte chooses the split points).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard size > 0 else { return 0 }
    let step = Int(data[0]) % 7 + 1
    let bytes = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    var whole = ServerSentEventParser(maximumEventSize: 4096)
    let expected = try? whole.feed(bytes)
    var split = ServerSentEventParser(maximumEventSize: 4096)
    var events: [ServerSentEvent]? = []
    var index = 0
    while index < bytes.count, events != nil {
        let end = min(index + step, bytes.count)
        if let more = try? split.feed(bytes[index..<end]) { events! += more } else { events = nil }
        index = end
    }
    if let expected, let events, expected != events {
        fatalError("split by \(step) gave other events: \(expected) vs \(events)")
    }
    return 0
}
