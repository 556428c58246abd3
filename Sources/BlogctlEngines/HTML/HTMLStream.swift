#if canImport(Glibc)
import Glibc
#endif
internal import CLibXML2
import CoreKit

/// What the parser reports, in document order. Every start gets its end, also for elements
/// the parser closes on its own. The pointers are valid only during the call.
package enum HTMLEvent {
    case enter(HTMLTag, HTMLAttributes)
    case exit(HTMLTag)
    case text(UnsafeBufferPointer<UInt8>)
}

/// An element's attributes as libxml2 hands them over: a NULL-terminated list of name/value pairs.
package struct HTMLAttributes {
    let pairs: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?

    /// The value of attribute `name`, sanitised, or nil.
    func value(_ name: StaticString) -> String? {
        bytes(name).map { Terminal.sanitizeField(String(decoding: $0, as: UTF8.self)) }
    }

    /// The raw bytes of attribute `name`'s value (empty for an attribute without one), or nil;
    /// valid only during the event. Not sanitised: the caller cleans them.
    func bytes(_ name: StaticString) -> UnsafeBufferPointer<UInt8>? {
        guard let pairs else { return nil }
        var index = 0
        while let key = pairs[index] {
            if Self.equals(key, name) {
                guard let value = pairs[index + 1] else { return UnsafeBufferPointer(start: nil, count: 0) }
                return UnsafeBufferPointer(start: value, count: strlen(UnsafeRawPointer(value).assumingMemoryBound(to: CChar.self)))
            }
            index += 2
        }
        return nil
    }

    /// Whether the NUL-ended `key` is `name`, byte for byte, with no String made of it (a
    /// static name's bytes read in place: a String's, one by one, cost most of a link).
    static func equals(_ key: UnsafePointer<xmlChar>, _ name: StaticString) -> Bool {
        let bytes = name.utf8Start
        for index in 0..<name.utf8CodeUnitCount {
            // A shorter key ends in NUL first, which no byte of a name is: never read past it.
            guard key[index] == bytes[index] else { return false }
        }
        return key[name.utf8CodeUnitCount] == 0
    }
}

/// libxml2's HTML parser in push mode with SAX callbacks: no tree is built, so memory stays
/// small whatever the size of the page, and input can be fed in pieces as it is decompressed.
/// Forgiving as browsers are (RECOVER, NOERROR, NOWARNING, NONET) and never with
/// XML_PARSE_HUGE, so libxml2's own limits on depth and text size stay in force.
package final class HTMLStream {
    static let options: Int32 = Int32(HTML_PARSE_RECOVER.rawValue | HTML_PARSE_NOERROR.rawValue
        | HTML_PARSE_NOWARNING.rawValue | HTML_PARSE_NONET.rawValue)

    private let visit: (HTMLEvent) -> Void
    private let library: LibXML2
    private let tagSlots = HTMLTag.slots
    private var context: htmlParserCtxtPtr?

    /// Throws only when libxml2 cannot be opened (the loader's message).
    init(_ visit: @escaping (HTMLEvent) -> Void) throws(ToolError) {
        self.visit = visit
        library = try LibXML2.loaded()
        var handler = htmlSAXHandler()
        // The stream is borrowed for each event, never retained and released: the parser runs
        // only inside the stream's own calls, so a retain and a release per event buy nothing.
        handler.startElement = { user, name, attributes in
            guard let user else { return }
            Unmanaged<HTMLStream>.fromOpaque(user)._withUnsafeGuaranteedRef { stream in
                stream.depth += 1
                stream.deepestSeen = max(stream.deepestSeen, stream.depth)
                stream.visit(.enter(stream.tag(named: name), HTMLAttributes(pairs: attributes)))
            }
        }
        handler.endElement = { user, name in
            guard let user else { return }
            Unmanaged<HTMLStream>.fromOpaque(user)._withUnsafeGuaranteedRef { stream in
                stream.depth -= 1
                stream.visit(.exit(stream.tag(named: name)))
            }
        }
        let characters: charactersSAXFunc = { user, bytes, count in
            guard let user, let bytes, count > 0 else { return }
            Unmanaged<HTMLStream>.fromOpaque(user)._withUnsafeGuaranteedRef {
                $0.visit(.text(UnsafeBufferPointer(start: bytes, count: Int(count))))
            }
        }
        handler.characters = characters
        handler.ignorableWhitespace = characters
        handler.cdataBlock = characters
        context = library.htmlCreatePushParserCtxt(&handler, Unmanaged.passUnretained(self).toOpaque(), nil, 0, nil,
                                                   XML_CHAR_ENCODING_UTF8)
        if let context { _ = library.htmlCtxtUseOptions(context, Self.options) }
    }

    deinit { if let context { library.htmlFreeParserCtxt(context) } }

    /// The names libxml2 hands over are interned in its parser's dictionary (or are its own
    /// constant strings): a name keeps one address for the whole parse, so the last ones
    /// looked up are known by their address.
    private var recentNames = [(name: UnsafePointer<UInt8>?, tag: HTMLTag)](repeating: (nil, .inline), count: 16)

    @inline(__always)
    private func tag(named name: UnsafePointer<UInt8>?) -> HTMLTag {
        guard let name else { return .inline }
        let slot = Int(truncatingIfNeeded: UInt(bitPattern: name) >> 3) & 15
        if recentNames[slot].name == name { return recentNames[slot].tag }
        let tag = HTMLTag.named(name, in: tagSlots)
        recentNames[slot] = (name, tag)
        return tag
    }

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
        // Only the new bytes are searched for a `<`: a megabyte of text arrives in many
        // pieces, and searching all that waits at every piece went over it again and again.
        if let open = Self.lastOpen(in: bytes) { lastOpen = pending.count + open }
        pending.append(contentsOf: bytes)
        guard pending.count >= 1 << 16 else { return }
        var cut = lastOpen ?? 0
        var breaksText = false
        if cut == 0 {
            guard pending.count >= 1 << 20 else { return }
            // A megabyte without a tag: safe to cut anywhere but inside a UTF-8 sequence.
            // libxml2 2.9's push parser parses text only once it sees the next `<`, so a
            // paragraph of 100 MB would sit whole in its buffer: when the piece ends in text,
            // an empty comment follows it (where the piece ends: it may open a comment).
            cut = UTF8Cut.completePrefix(pending)
            breaksText = true
        }
        push(pending[..<cut])
        if breaksText && scanner.inText { push(Self.textBreak[...]) }
        pending.removeFirst(cut)
        lastOpen = lastOpen.flatMap { $0 >= cut ? $0 - cut : nil }
    }

    /// Where the last `<` of `pending` is, if it holds one.
    private var lastOpen: Int?

    static func lastOpen(in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        bytes.lastIndex(of: UInt8(ascii: "<"))
    }

    /// The deepest libxml2's element stack may go: a start tag that would open an element
    /// deeper is left out, and what it held flows into the element around it (blogctl(1),
    /// read). libxml2 2.9 keeps a stack entry for every open element with no limit of its
    /// own in HTML: 250 MB of `<div><span>` held 650 MB.
    static let deepest = 256
    /// libxml2's element stack as its events say: opened minus closed, implied and
    /// auto-closed elements included.
    private(set) var depth = 0
    /// The deepest it went (for tests).
    private(set) var deepestSeen = 0
    /// Start tags left out for depth (for tests).
    private(set) var startTagsLeftOut = 0
    /// The most bytes libxml2 held unparsed after a chunk (for tests).
    private(set) var heldMost = 0

    /// Hands `bytes` to libxml2, leaving out a start tag that would go past `deepest`. The
    /// stack's depth is known only from the events of what was parsed; so before a start
    /// tag that could reach the limit (the known depth plus every start tag since, each of
    /// which may deepen it), what comes before it is parsed first and the depth read again.
    private func push(_ bytes: ArraySlice<UInt8>) {
        guard context != nil, !bytes.isEmpty else { return }
        var from = bytes.startIndex
        var starts = 0
        var index = bytes.startIndex
        // Only text since the last start tag left out: the depth is still at the limit, and
        // the next start tag is left out with nothing parsed first.
        var atLimit = false
        // A local copy, stored back at the end: a stored property stepped per byte paid a
        // dynamic exclusivity check per byte.
        var scanner = self.scanner
        // Where the construct being read began: carried over from the last piece as a length.
        var markupStart = bytes.startIndex - markupBytes
        defer {
            self.scanner = scanner
            markupBytes = scanner.inText ? 0 : bytes.endIndex - markupStart
        }
        dropping?.start = nil
        while index < bytes.endIndex {
            guard !scanner.inText else {
                // In text only a `<` changes anything: skip to it at memchr's speed.
                index = Self.firstOpen(bytes, from: index)
                guard index < bytes.endIndex else { break }
                scanner.open()
                markupStart = index
                // Where a construct starting here reaches `markupLimit`.
                let limit = min(bytes.endIndex, markupStart + Self.markupLimit)
                guard index + 1 < bytes.endIndex, MarkupScanner.isLetter(bytes[index + 1]) else {
                    atLimit = false  // an end tag, a comment: the depth may change
                    index = (dropping == nil ? scanner.readTag(bytes, at: index, before: limit) : nil) ?? index + 1
                    continue
                }
                // Void elements take no place on the stack, but are told apart only near the
                // limit: below it, counting one as a start costs nothing.
                if depth + starts + 1 > Self.deepest, case let kind = Self.nameKind(bytes, at: index + 1), kind != .void {
                    if !atLimit {
                        parse(flattenedThen: bytes[from..<index])
                        from = index
                        starts = 0
                    }
                    if depth + 1 > Self.deepest, let end = Self.tagEnd(bytes, from: index) {
                        // Left out: libxml2 never sees it. What it separated stays apart: a block
                        // becomes a line break, anything else a space. The scanner was in the
                        // tag; it ends there.
                        startTagsLeftOut += 1
                        flattened.append(contentsOf: bytes[from..<index])
                        flattened.append(contentsOf: kind == .block ? Self.lineBreak : Self.space)
                        // Text and void line breaks leave the depth as it is: parsed in pieces.
                        if flattened.count >= 1 << 16 { parseFlattened() }
                        atLimit = true
                        scanner = MarkupScanner()
                        from = end + 1
                        index = end + 1
                        continue
                    }
                }
                atLimit = false
                starts += 1
                index = (dropping == nil ? scanner.readTag(bytes, at: index, before: limit) : nil) ?? index + 1
                continue
            }
            if let quote = scanner.valueQuote, dropping == nil {
                // So in a quoted value, up to its quote or the construct's limit.
                index = min(Self.first(quote, in: bytes, from: index), markupStart + Self.markupLimit)
                guard index < bytes.endIndex else { break }
            } else if let only = scanner.onlyChangedBy {
                // So in raw text and comments, also while one is left out (to its end).
                let found = Self.first(only, in: bytes, from: index)
                index = dropping == nil ? min(found, markupStart + Self.markupLimit) : found
                guard index < bytes.endIndex else {
                    if dropping != nil { from = bytes.endIndex }
                    break
                }
            }
            // Inside markup: only a stray quote, a construct past its limit or one left out
            // needs more than the scanner's step.
            let stray = scanner.step(bytes[index])
            if stray || dropping != nil || index - markupStart >= Self.markupLimit {
                markupByte(at: index, in: bytes, stray: stray, scanner: scanner, from: &from, start: &markupStart)
            }
            index += 1
        }
        parse(flattenedThen: bytes[min(from, bytes.endIndex)..<bytes.endIndex])
    }

    /// What libxml2 gets in place of bytes pushed: a run of start tags left out and the text
    /// between them (parsed in one call when the run ends: two calls for each tag left out
    /// were most of the time of deep nesting), stray quotes as references, a construct cut.
    var flattened: [UInt8] = []
    /// The bytes of the tag, comment, declaration or raw text that the last piece ended in
    /// (`markupLimit`).
    var markupBytes = 0
    /// The construct past `markupLimit` being left out, if any.
    var dropping: Dropping?

    func parseFlattened() {
        guard !flattened.isEmpty else { return }
        parse(flattened[...])
        flattened.removeAll(keepingCapacity: true)
    }

    static let lineBreak = Array("<br>".utf8)
    static let space = [UInt8(ascii: " ")]

    func parse(_ bytes: ArraySlice<UInt8>) {
        guard let context, !bytes.isEmpty else { return }
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
                if let input = context.pointee.input {
                    library.xmlParserInputShrink(input)
                    heldMost = max(heldMost, input.pointee.end - input.pointee.cur)
                }
            }
        }
    }

    /// Ends the document: the parser closes what is still open.
    func finish() {
        guard let context else { return }
        push(pending[...])
        pending.removeAll()
        lastOpen = nil
        _ = library.htmlParseChunk(context, nil, 0, 1)
    }
}
