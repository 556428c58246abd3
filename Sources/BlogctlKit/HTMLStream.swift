#if canImport(Glibc)
import Glibc
#endif
internal import CLibXML2
import ToolboxKit

/// What the parser reports, in document order. Every start gets its end, also for elements
/// the parser closes on its own. The pointers are valid only during the call.
enum HTMLEvent {
    case enter(HTMLTag, HTMLAttributes)
    case exit(HTMLTag)
    case text(UnsafeBufferPointer<UInt8>)
}

/// An element's attributes as libxml2 hands them over: a NULL-terminated list of name/value pairs.
struct HTMLAttributes {
    let pairs: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?

    /// The value of attribute `name`, sanitised, or nil.
    func value(_ name: String) -> String? {
        guard let pairs else { return nil }
        var index = 0
        while let key = pairs[index] {
            if String(cString: key) == name {
                return pairs[index + 1].map { Terminal.sanitizeField(String(cString: $0)) } ?? ""
            }
            index += 2
        }
        return nil
    }
}

/// libxml2's HTML parser in push mode with SAX callbacks: no tree is built, so memory stays
/// small whatever the size of the page, and input can be fed in pieces as it is decompressed.
/// Forgiving as browsers are (RECOVER, NOERROR, NOWARNING, NONET) and never with
/// XML_PARSE_HUGE, so libxml2's own limits on depth and text size stay in force.
final class HTMLStream {
    static let options: Int32 = Int32(HTML_PARSE_RECOVER.rawValue | HTML_PARSE_NOERROR.rawValue
        | HTML_PARSE_NOWARNING.rawValue | HTML_PARSE_NONET.rawValue)

    private let visit: (HTMLEvent) -> Void
    private let library: LibXML2
    private var context: htmlParserCtxtPtr?

    /// Throws only when libxml2 cannot be opened (the loader's message).
    init(_ visit: @escaping (HTMLEvent) -> Void) throws(ToolError) {
        self.visit = visit
        library = try LibXML2.loaded()
        var handler = htmlSAXHandler()
        handler.startElement = { user, name, attributes in
            guard let user else { return }
            let stream = Unmanaged<HTMLStream>.fromOpaque(user).takeUnretainedValue()
            stream.visit(.enter(HTMLTag.named(name), HTMLAttributes(pairs: attributes)))
        }
        handler.endElement = { user, name in
            guard let user else { return }
            Unmanaged<HTMLStream>.fromOpaque(user).takeUnretainedValue().visit(.exit(HTMLTag.named(name)))
        }
        let characters: charactersSAXFunc = { user, bytes, count in
            guard let user, let bytes, count > 0 else { return }
            Unmanaged<HTMLStream>.fromOpaque(user).takeUnretainedValue()
                .visit(.text(UnsafeBufferPointer(start: bytes, count: Int(count))))
        }
        handler.characters = characters
        handler.ignorableWhitespace = characters
        handler.cdataBlock = characters
        context = library.htmlCreatePushParserCtxt(&handler, Unmanaged.passUnretained(self).toOpaque(), nil, 0, nil,
                                                   XML_CHAR_ENCODING_UTF8)
        if let context { _ = library.htmlCtxtUseOptions(context, Self.options) }
    }

    deinit { if let context { library.htmlFreeParserCtxt(context) } }

    /// Bytes not yet handed to libxml2.
    private var pending: [UInt8] = []
    /// Where the bytes handed over so far leave the parser: in text, or inside markup.
    private var scanner = MarkupScanner()
    /// An empty comment, which the renderer never sees: pushed into a long run of text so that
    /// libxml2 hands the text over rather than hold it all.
    static let textBreak = Array("<!---->".utf8)

    /// Parses the next piece of the document. Pieces reach libxml2 in runs of at least 64 KiB
    /// that end just before a `<`: libxml2 2.9's push parser, resumed in the middle of a tag
    /// with a quoted attribute, can stop parsing and keep everything after it in its input
    /// buffer until the end (seen at 64 KiB pieces: a 30 MB post held whole). A piece that
    /// ends before a tag never resumes inside one.
    func feed(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard context != nil, !bytes.isEmpty else { return }
        pending.append(contentsOf: bytes)
        guard pending.count >= 1 << 16 else { return }
        var cut = pending.lastIndex(of: UInt8(ascii: "<")) ?? 0
        var breaksText = false
        if cut == 0 {
            guard pending.count >= 1 << 20 else { return }
            // A megabyte without a tag: safe to cut anywhere but inside a UTF-8 sequence.
            // libxml2 2.9's push parser parses text only once it sees the next `<`, so a
            // paragraph of 100 MB would sit whole in its buffer: in text, an empty comment
            // follows the piece.
            cut = UTF8Cut.completePrefix(pending)
            breaksText = scanner.inText
        }
        push(pending[..<cut])
        if breaksText { push(Self.textBreak[...]) }
        pending.removeFirst(cut)
    }

    private func push(_ bytes: ArraySlice<UInt8>) {
        guard let context, !bytes.isEmpty else { return }
        scanner.scan(bytes)
        bytes.withUnsafeBufferPointer { buffer in
            var offset = 0
            // htmlParseChunk takes an Int32 size.
            while offset < buffer.count {
                let count = min(buffer.count - offset, 1 << 20)
                buffer.baseAddress!.advanced(by: offset).withMemoryRebound(to: CChar.self, capacity: count) {
                    _ = library.htmlParseChunk(context, $0, Int32(count), 0)
                }
                offset += count
                // libxml2 2.9's HTML push parser lets go of the input it has parsed only while
                // parsing text near the end of what it was given: a run of tags with no text
                // between them (a paragraph of images, of `<br>`) was kept whole, a megabyte
                // of memory a megabyte of body. Done here as 2.11's parser does it itself,
                // between chunks, where it holds no pointer into the buffer but `input`'s.
                if let input = context.pointee.input { library.xmlParserInputShrink(input) }
            }
        }
    }

    /// Ends the document: the parser closes what is still open.
    func finish() {
        guard let context else { return }
        push(pending[...])
        pending.removeAll()
        _ = library.htmlParseChunk(context, nil, 0, 1)
    }
}

/// Follows HTML's markup as far as telling text from the inside of a tag, a comment or a
/// declaration: enough to know where an empty comment may go without changing the document.
struct MarkupScanner {
    private enum State { case text, open, bang, bangDash, tag, comment, declaration }
    private var state = State.text
    private var quote: UInt8 = 0
    private var dashes = 0

    var inText: Bool { state == .text }

    mutating func scan(_ bytes: some Sequence<UInt8>) {
        for byte in bytes {
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
}
