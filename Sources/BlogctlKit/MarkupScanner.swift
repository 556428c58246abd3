/// Follows HTML's markup as far as telling text from the inside of a tag, a comment or a
/// declaration: enough to know where an empty comment may go without changing the document.
struct MarkupScanner {
    private enum State { case text, open, bang, bangDash, tag, comment, declaration }
    private var state = State.text
    private var quote: UInt8 = 0
    private var dashes = 0

    var inText: Bool { state == .text }

    mutating func scan(_ bytes: some Sequence<UInt8>) {
        for byte in bytes { step(byte) }
    }

    mutating func step(_ byte: UInt8) {
        switch state {
        case .text:
            if byte == UInt8(ascii: "<") { state = .open }
        case .open:
            switch byte {
            case UInt8(ascii: "!"): state = .bang
            case UInt8(ascii: "?"): state = .declaration
            case UInt8(ascii: "<"): state = .open
            case _ where byte == UInt8(ascii: "/") || (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z"):
                state = .tag
                quote = 0
            default: state = .text  // a lone `<` is text
            }
        case .bang:
            state = byte == UInt8(ascii: "-") ? .bangDash : byte == UInt8(ascii: ">") ? .text : .declaration
        case .bangDash:
            state = byte == UInt8(ascii: "-") ? .comment : byte == UInt8(ascii: ">") ? .text : .declaration
            dashes = 0
        case .comment:
            if byte == UInt8(ascii: ">") && dashes >= 2 { state = .text }
            dashes = byte == UInt8(ascii: "-") ? dashes + 1 : 0
        case .declaration:
            if byte == UInt8(ascii: ">") { state = .text }
        case .tag:
            if quote != 0 {
                if byte == quote { quote = 0 }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: ">") {
                state = .text
            }
        }
    }
}
