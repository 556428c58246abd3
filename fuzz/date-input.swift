import FoundationEssentials

// Dates typed by installers (`devsync install --at`), and the dates servers send. Properties:
// no crash, no hang; a value taken is one the server's form carries (years 0000–9999), and
// written as ISO 8601 it reads back as the same second, with one calendar both ways.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let input = DateInput(now: Date(timeIntervalSince1970: 1_700_000_000), utcOffset: { _ in 3_600 })
    if let value = input.value(text) {
        let start: Date
        switch value {
        case .instant(let date): start = date
        case .day(let first, _): start = first
        }
        guard ISO8601.isRepresentable(start) else { fatalError("taken but not representable: \(text.debugDescription)") }
        let written = ISO8601.format(start)
        guard let back = ISO8601.parse(written), back == Date(timeIntervalSince1970: start.timeIntervalSince1970.rounded(.down)) else {
            fatalError("\(text.debugDescription) -> \(written) does not read back")
        }
    }
    if let date = ISO8601.parse(text), ISO8601.isRepresentable(date) {
        let written = ISO8601.format(date)
        guard ISO8601.parse(written) == Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down)) else {
            fatalError("\(text.debugDescription) -> \(written) does not read back")
        }
    }
    return 0
}
