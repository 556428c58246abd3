/// A body without markup as paragraphs: runs of lines between blank ones (a line of spaces,
/// tabs and carriage returns is blank), each a list of its lines, in order.
struct PlainTextParagraphs: IteratorProtocol {
    private let text: [UInt8]
    private var start = 0

    init(_ text: [UInt8]) { self.text = text }

    mutating func next() -> [ArraySlice<UInt8>]? {
        var paragraph: [ArraySlice<UInt8>] = []
        while start <= text.count {
            let end = text[start...].firstIndex(of: 0x0A) ?? text.count
            let line = text[start..<end]
            start = end + 1
            if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) {
                if !paragraph.isEmpty { return paragraph }
            } else {
                paragraph.append(line)
            }
        }
        return paragraph.isEmpty ? nil : paragraph
    }
}
