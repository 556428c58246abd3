#if canImport(Glibc)
import Glibc
#endif
internal import CLibXML2
import CoreKit

/// One node of a feed's XML, as the stream passes it. Names are local names with their
/// namespace URI ("" for none); `base` is the element's base URL: every `xml:base` on the way
/// down read against the one above it, from the document's own URL; nil for that URL itself.
/// (Most feeds have no `xml:base`: nil keeps every field of every entry from holding, and
/// counting references to, one shared String.)
package enum FeedXMLNode {
    case start(FeedXMLElement)
    /// The local name, NUL-ended, valid during the visit alone: the feed parser never reads it,
    /// so no String is made for an end tag.
    case end(name: UnsafePointer<UInt8>)
    /// Text or CDATA inside an element, as UTF-8, valid during the visit alone: most text
    /// between a feed's elements is whitespace nobody keeps, and no String is made for it.
    case text(UnsafeBufferPointer<UInt8>)
}

package struct FeedXMLElement {
    var name: String
    /// What the feed parser knows `name` as: it switches on this, not on the String.
    var kind: FeedXMLName
    var namespace: String
    var attributes: [(name: String, namespace: String, value: String)]
    var base: String?

    func attribute(_ name: String, namespace: String = "") -> String? {
        attributes.first { $0.name == name && $0.namespace == namespace }?.value
    }
}

/// The local names the feed parser acts on, whatever their namespace (it checks that).
package enum FeedXMLName {
    case other, item, entry, title, link, guid, id, description, encoded, content, summary, author, name, creator
    case pubDate, date, published, issued, created, updated, modified
    case enclosure, thumbnail, image, duration, player

    init(_ name: String) {
        self = switch name {
        case "item": .item
        case "entry": .entry
        case "title": .title
        case "link": .link
        case "guid": .guid
        case "id": .id
        case "description": .description
        case "encoded": .encoded
        case "content": .content
        case "summary": .summary
        case "author": .author
        case "name": .name
        case "creator": .creator
        case "pubDate": .pubDate
        case "date": .date
        case "published": .published
        case "issued": .issued
        case "created": .created
        case "updated": .updated
        case "modified": .modified
        case "enclosure": .enclosure
        case "thumbnail": .thumbnail
        case "image": .image
        case "duration": .duration
        case "player": .player
        default: .other
        }
    }
}

/// Element names as Strings and kinds, made once a name. libxml2 hands each local name from
/// its dictionary, one pointer a name for the whole parse, so the pointer finds the name;
/// the bytes are still compared, so a pointer to other bytes is never taken for it. No
/// String is made, and none compared, for each of a big feed's elements.
package struct FeedXMLNames {
    private var slots = [(pointer: UnsafePointer<UInt8>, bytes: [UInt8], name: String, kind: FeedXMLName)?](repeating: nil, count: 256)

    mutating func name(_ pointer: UnsafePointer<UInt8>) -> (name: String, kind: FeedXMLName) {
        // Fibonacci hashing (a dictionary keeps its names a few bytes apart, which the low
        // bits alone would crowd together), then the next slots: a feed has a few dozen names.
        var slot = Int(truncatingIfNeeded: (UInt64(UInt(bitPattern: pointer)) &* 0x9E37_79B9_7F4A_7C15) >> 56)
        for _ in 0..<8 {
            guard let held = slots[slot] else { break }
            if held.pointer == pointer, held.bytes.withUnsafeBufferPointer({ strcmp($0.baseAddress!, pointer) == 0 }) {
                return (held.name, held.kind)
            }
            slot = (slot + 1) & (slots.count - 1)
        }
        // Not held: into the slot the probe stopped at (empty, or the eighth, taken over).
        let name = String(cString: pointer)
        let kind = FeedXMLName(name)
        slots[slot] = (pointer, Array(name.utf8) + [0], name, kind)
        return (name, kind)
    }
}

/// libxml2's XML push parser with SAX2 callbacks over a feed: events, never a tree, fed in
/// pieces, so a feed of any size is read in the memory of its largest text. Hostile documents
/// are data: the handler has no entity declaration, lookup or resolver, so no DTD is read, no
/// external entity is loaded and no entity is expanded (a billion laughs expands to nothing);
/// NONET forbids the network; libxml2's limits on depth and text size stay in force (never
/// XML_PARSE_HUGE). Ill-formed XML (an undeclared `&nbsp;`, a tag left open) is recovered as
/// far as libxml2's recover mode goes; `problems` counts what it recovered from.
package final class FeedXMLStream {
    /// NOENT, though no entity is ever declared here: without it libxml2 hands `&amp;` in an
    /// attribute over as `&#38;` (a link's query string broken); with no declaration stored
    /// and no lookup, it can replace only the five predefined ones and character references.
    static let options = Int32(XML_PARSE_RECOVER.rawValue | XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue
        | XML_PARSE_NOWARNING.rawValue | XML_PARSE_COMPACT.rawValue | XML_PARSE_NOENT.rawValue)
    static let xmlNamespace = "http://www.w3.org/XML/1998/namespace"

    /// How many errors libxml2 recovered from, and the first one's words.
    private(set) var problems = 0
    private(set) var firstProblem: String?

    private let library: LibXML2.XML
    private var context: xmlParserCtxtPtr?
    private let visit: (FeedXMLNode) -> Bool
    /// The base URL of each open element (nil: the document's URL), the document's first.
    private var bases: [String?] = [nil]
    private let url: String
    private var stopped = false
    private var lastNamespace = 0
    private var names = FeedXMLNames()
    /// Whether text is passed on: a reader that keeps only some elements' text (the feed
    /// parser, while it captures none) says so, and the whitespace between a big feed's
    /// million elements is never handed over.
    var wantsText = true

    /// A stream of the document at `url` (the base of its relative links); `encoding`, when
    /// given, is used whatever the document declares (an HTTP charset, RFC 7303). `visit`
    /// returns false to stop.
    init(url: String, encoding: String?, visit: @escaping (FeedXMLNode) -> Bool) throws(ToolError) {
        library = try LibXML2.loaded().xml
        self.visit = visit
        self.url = url
        var handler = xmlSAXHandler()
        handler.initialized = XML_SAX2_MAGIC
        handler.startElementNs = { user, name, _, uri, _, _, count, _, attributes in
            guard let user, let name else { return }
            Unmanaged<FeedXMLStream>.fromOpaque(user).takeUnretainedValue().start(name, uri, Int(count), attributes)
        }
        handler.endElementNs = { user, name, _, _ in
            guard let user, let name else { return }
            let stream = Unmanaged<FeedXMLStream>.fromOpaque(user).takeUnretainedValue()
            if stream.bases.count > 1 { stream.bases.removeLast() }
            stream.send(.end(name: name))
        }
        let characters: charactersSAXFunc = { user, bytes, length in
            guard let user, let bytes, length > 0 else { return }
            let stream = Unmanaged<FeedXMLStream>.fromOpaque(user).takeUnretainedValue()
            if stream.wantsText { stream.send(.text(UnsafeBufferPointer(start: bytes, count: Int(length)))) }
        }
        handler.characters = characters
        handler.cdataBlock = characters
        handler.serror = { user, error in
            guard let user else { return }
            let stream = Unmanaged<FeedXMLStream>.fromOpaque(user).takeUnretainedValue()
            stream.problems += 1
            if stream.firstProblem == nil, let message = error?.pointee.message {
                stream.firstProblem = FeedText.collapsed(Terminal.sanitizeField(String(cString: message)))
            }
        }
        guard let context = library.createPushParser(&handler, Unmanaged.passUnretained(self).toOpaque(), nil, 0, url) else {
            throw .protocolViolation(url: url, detail: "libxml2 could not start reading the feed")
        }
        self.context = context
        var options = Self.options
        if let encoding {
            _ = library.resetPush(context, nil, 0, url, encoding)
            options |= Int32(XML_PARSE_IGNORE_ENC.rawValue)
        }
        _ = library.useOptions(context, options)
    }

    deinit { if let context { library.free(context) } }

    /// Parses the next piece of the document.
    func feed(_ bytes: UnsafeRawBufferPointer) {
        guard let context, !stopped else { return }
        // In pieces of at most 1 MiB: the length is a C int.
        var offset = 0
        while offset < bytes.count, !stopped {
            let length = min(bytes.count - offset, 1 << 20)
            _ = library.parseChunk(context, bytes.baseAddress!.advanced(by: offset).assumingMemoryBound(to: CChar.self), Int32(length), 0)
            offset += length
        }
    }

    /// The end of the document: what is still open is closed.
    func finish() {
        guard let context, !stopped else { return }
        _ = library.parseChunk(context, nil, 0, 1)
    }

    private func send(_ node: FeedXMLNode) {
        guard !stopped else { return }
        if !visit(node), let context {
            stopped = true
            library.stop(context)
        }
    }

    /// The namespaces feeds use, made once: a URI is longer than a String holds in place,
    /// and one made for each element would be an allocation per element.
    static let knownNamespaces: [(bytes: [UInt8], name: String)] = [
        FeedXMLParser.Namespace.atom10, FeedXMLParser.Namespace.atom03, FeedXMLParser.Namespace.rss10,
        FeedXMLParser.Namespace.rss090, FeedXMLParser.Namespace.rdf, FeedXMLParser.Namespace.dc,
        FeedXMLParser.Namespace.content, xmlNamespace, "http://www.w3.org/1999/xhtml",
    ].map { (Array($0.utf8) + [0], $0) }

    /// A namespace URI as a String (one of `knownNamespaces`, made once). `lastFound`: where
    /// the last known one was found, compared first: a feed's namespaced elements are mostly
    /// of one or two namespaces.
    static func namespace(_ uri: UnsafePointer<xmlChar>?, lastFound: inout Int) -> String {
        guard let uri else { return "" }
        func matches(_ index: Int) -> Bool { knownNamespaces[index].bytes.withUnsafeBufferPointer { strcmp($0.baseAddress!, uri) == 0 } }
        if matches(lastFound) { return knownNamespaces[lastFound].name }
        for index in knownNamespaces.indices where index != lastFound && matches(index) {
            lastFound = index
            return knownNamespaces[index].name
        }
        return String(cString: uri)
    }

    private func start(_ name: UnsafePointer<xmlChar>, _ uri: UnsafePointer<xmlChar>?, _ count: Int,
                       _ attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?) {
        let (name, kind) = names.name(name)
        var element = FeedXMLElement(name: name, kind: kind, namespace: Self.namespace(uri, lastFound: &lastNamespace), attributes: [], base: bases.last ?? nil)
        if let attributes {
            // Five pointers an attribute: local name, prefix, URI, value, end of value.
            for index in 0..<count {
                guard let local = attributes[index * 5], let value = attributes[index * 5 + 3], let end = attributes[index * 5 + 4] else { continue }
                let text = String(decoding: UnsafeBufferPointer(start: value, count: value.distance(to: end)), as: UTF8.self)
                element.attributes.append((String(cString: local), Self.namespace(attributes[index * 5 + 2], lastFound: &lastNamespace), text))
            }
        }
        if let base = element.attribute("base", namespace: Self.xmlNamespace) {
            // Read against the base above; a base that is not http(s) leaves it as it was.
            let above = element.base ?? url
            element.base = URLReference(above)?.resolving(base).map { $0.absolute } ?? URLReference(base)?.absolute ?? above
        }
        bases.append(element.base)
        send(.start(element))
    }
}
