import FoundationEssentials

// Dates as feeds write them (issue 49). Properties: no crash, no hang; a date read is either
// right or absent: written back as ISO 8601 it reads as the same second, and where the
// strict ISO 8601 reader also reads the text, the two agree.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    guard let date = FeedDate.parse(text) else { return 0 }
    guard date.timeIntervalSince1970.isFinite else { fatalError("\(text.debugDescription): not finite") }
    if let strict = ISO8601.parse(text), strict != date {
        fatalError("\(text.debugDescription): \(strict) by ISO8601, \(date) by FeedDate")
    }
    if ISO8601.isRepresentable(date) {
        let written = ISO8601.format(date)
        guard FeedDate.parse(written) == Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down)) else {
            fatalError("\(text.debugDescription) -> \(written) does not read back")
        }
    }
    return 0
}
