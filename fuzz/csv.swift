// devsync's CSV and its export cells. Properties: any input parses or fails with a line and
// column inside the text; fields cut from the input format to a line that parses back to the
// same fields, byte for byte; a neutralised cell never starts a formula and `imported` gives
// the cell back exactly.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    do {
        _ = try CSV.parse(text)
    } catch {
        let lines = text.unicodeScalars.count(where: { $0 == "\n" }) + 1
        guard (1...lines).contains(error.line), error.column >= 1 else { fatalError("error outside the text: \(error)") }
    }
    // Fields: the input cut at 0x1F bytes (any other byte, quotes and line breaks included, is content).
    let fields = UnsafeBufferPointer(start: data, count: size).split(separator: 0x1F, omittingEmptySubsequences: false)
        .map { String(decoding: $0, as: UTF8.self) }
    let line = CSV.format(fields.map(DeviceExport.neutralized))
    guard let records = try? CSV.parse(line + "\r\n"), let record = records.first, records.count == 1 || fields == [""] else {
        fatalError("a formatted line does not parse back: \(line.debugDescription)")
    }
    if fields != [""] {
        let back = record.fields.map(DeviceExport.imported)
        guard back.map({ Array($0.utf8) }) == fields.map({ Array($0.utf8) }) else {
            fatalError("round trip changed the fields: \(fields.debugDescription) -> \(back.debugDescription)")
        }
    }
    for field in fields {
        let cell = DeviceExport.neutralized(field)
        if let first = cell.utf8.first, [UInt8(ascii: "="), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "@"), 0x09, 0x0D].contains(first) {
            fatalError("a cell starts a formula: \(cell.debugDescription)")
        }
    }
    return 0
}
