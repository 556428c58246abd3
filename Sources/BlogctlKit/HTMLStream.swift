#if canImport(Glibc)
import Glibc
#endif
import CLibXML2
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
    private var context: htmlParserCtxtPtr?

    init(_ visit: @escaping (HTMLEvent) -> Void) {
        self.visit = visit
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
        context = htmlCreatePushParserCtxt(&handler, Unmanaged.passUnretained(self).toOpaque(), nil, 0, nil,
                                           XML_CHAR_ENCODING_UTF8)
        if let context { htmlCtxtUseOptions(context, Self.options) }
    }

    deinit { if let context { htmlFreeParserCtxt(context) } }

    /// Bytes not yet handed to libxml2.
    private var pending: [UInt8] = []

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
        if cut == 0 {
            guard pending.count >= 1 << 20 else { return }
            cut = pending.count  // a megabyte without a tag: text, safe to cut anywhere
        }
        push(pending[..<cut])
        pending.removeFirst(cut)
    }

    private func push(_ bytes: ArraySlice<UInt8>) {
        guard let context, !bytes.isEmpty else { return }
        bytes.withUnsafeBufferPointer { buffer in
            var offset = 0
            // htmlParseChunk takes an Int32 size.
            while offset < buffer.count {
                let count = min(buffer.count - offset, 1 << 20)
                buffer.baseAddress!.advanced(by: offset).withMemoryRebound(to: CChar.self, capacity: count) {
                    _ = htmlParseChunk(context, $0, Int32(count), 0)
                }
                offset += count
            }
        }
    }

    /// Ends the document: the parser closes what is still open.
    func finish() {
        guard let context else { return }
        push(pending[...])
        pending.removeAll()
        htmlParseChunk(context, nil, 0, 1)
    }
}
