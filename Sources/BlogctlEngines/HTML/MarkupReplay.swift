internal import CLibXML2
import CoreKit

/// `MarkupScanner` replayed against the libxml2 loaded on this machine: the document parsed
/// by libxml2 alone (blogctl's options, one chunk), the byte at which each element opens
/// noted, and the scanner stepped to that byte. An element libxml2 opens must open where the
/// scanner is inside a start tag: anywhere else, `HTMLStream` would not count it, and it would
/// nest past the depth bound unseen. Elements libxml2 makes up itself (`html`, `head`,
/// `body`, `p`) open where no tag is, and are not asked about. A scanner that counts a tag
/// libxml2 reads as text only costs a parse call, and is not a disagreement.
package enum MarkupReplay {
    package struct Disagreement: Equatable, CustomStringConvertible {
        /// Where libxml2 opened the element, in bytes from the document's start.
        var offset: Int
        var element: String
        var scanner: MarkupScanner.State

        package var description: String {
            "libxml2 \(LibXML2Version.shown((try? LibXML2Version.loaded()) ?? 0)) opens <\(element)> at byte \(offset), "
                + "where MarkupScanner reads \(scanner)"
        }
    }

    static let madeUp: Set<String> = ["html", "head", "body", "p"]

    /// The first element libxml2 opens where the scanner is not in a start tag, or nil.
    /// `scanner`: where the scanner starts (a test starts it astray, to see a disagreement said).
    static func firstDisagreement(_ html: [UInt8], scanner start: MarkupScanner = MarkupScanner()) throws(ToolError) -> Disagreement? {
        let opened = try openings(html)
        var scanner = start
        var stepped = 0
        for (offset, element) in opened where !madeUp.contains(element) {
            while stepped < min(offset, html.count) {
                _ = scanner.step(html[stepped])
                stepped += 1
            }
            if !scanner.isInStartTag { return Disagreement(offset: offset, element: element, scanner: scanner.state) }
        }
        return nil
    }

    /// Each element libxml2 opens in `html`, with the byte its parser had reached.
    static func openings(_ html: [UInt8]) throws(ToolError) -> [(offset: Int, element: String)] {
        final class Record {
            var context: htmlParserCtxtPtr?
            var opened: [(offset: Int, element: String)] = []
        }
        let library = try LibXML2.loaded()
        let record = Record()
        var handler = htmlSAXHandler()
        handler.startElement = { user, name, _ in
            guard let user, let name else { return }
            let record = Unmanaged<Record>.fromOpaque(user).takeUnretainedValue()
            guard let input = record.context?.pointee.input else { return }
            let offset = Int(input.pointee.consumed) + (input.pointee.cur - input.pointee.base)
            record.opened.append((offset, String(cString: name)))
        }
        let context = library.htmlCreatePushParserCtxt(&handler, Unmanaged.passUnretained(record).toOpaque(), nil, 0, nil,
                                                       XML_CHAR_ENCODING_UTF8)
        guard let context else { throw .io(path: LibXML2.soname, reason: "no HTML parser") }
        defer { library.htmlFreeParserCtxt(context) }
        _ = library.htmlCtxtUseOptions(context, HTMLStream.options)
        record.context = context
        html.withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { _ = library.htmlParseChunk(context, $0.baseAddress, Int32($0.count), 1) }
        }
        return record.opened
    }
}
