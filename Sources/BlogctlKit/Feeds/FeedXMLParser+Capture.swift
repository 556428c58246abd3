import CoreKit

/// What `FeedXMLParser` captures while it reads: the fields of an entry (or of the feed), each
/// from its start tag to its end, and the entry's fields so far.
extension FeedXMLParser {
    /// A field of an entry (or of the feed), captured from its start to its end.
    enum Field: Int, CaseIterable {
        case title, link, id, description, content, summary, author, authorName, published, updated, creator
        case feedTitle, feedLink
        /// Fallbacks, for an entry without its own: Dublin Core's title, Media RSS's title and
        /// description (YouTube's feeds carry an entry's text only there).
        case dcTitle, mediaTitle, mediaDescription
        /// iTunes's episode length, for the entry's first enclosure when it says none.
        case itunesDuration
    }

    /// What a captured field's text is (Atom's `type`; RSS's description and content are HTML).
    enum TextType {
        case text, html, xhtml
        /// Atom 0.3's `mode="base64"`: the text or HTML, base64-encoded.
        case base64Text, base64HTML
    }

    /// What is being captured: the field, its depth, its type, and where its text starts in
    /// the bytes of the draft it belongs to (the entry's, or the feed's own).
    struct Capture {
        var field: Field
        var depth: Int
        var type: TextType
        var base: String?
        var start: Int
        /// The XHTML elements open inside it, for their end tags.
        var elements: [String] = []

        /// Text, escaped when the field is XHTML; a field past its bound is cut there, so a
        /// hostile feed's endless title grows nothing.
        func append(_ piece: UnsafeBufferPointer<UInt8>, to text: inout [UInt8]) {
            if type == .xhtml { add(FeedText.escaped(String(decoding: piece, as: UTF8.self)), to: &text) } else { add(piece, to: &text) }
        }

        /// An XHTML element's start tag, serialised again as HTML (no-namespace attributes).
        mutating func open(_ element: FeedXMLElement, to text: inout [UInt8]) {
            elements.append(element.name)
            var tag = "<" + element.name
            for attribute in element.attributes where attribute.namespace.isEmpty {
                tag += " " + attribute.name + "=\"" + FeedText.escaped(attribute.value) + "\""
            }
            add(tag + ">", to: &text)
        }

        mutating func close(to text: inout [UInt8]) {
            guard let name = elements.popLast(), !FeedXMLParser.voidElements.contains(name) else { return }
            add("</" + name + ">", to: &text)
        }

        private func add(_ piece: String, to text: inout [UInt8]) {
            let room = FeedXMLParser.largest(field) - (text.count - start)
            if room > 0 { text.append(contentsOf: piece.utf8.prefix(room)) }
        }

        private func add(_ piece: UnsafeBufferPointer<UInt8>, to text: inout [UInt8]) {
            let room = FeedXMLParser.largest(field) - (text.count - start)
            if room > 0 { text.append(contentsOf: piece.prefix(room)) }
        }
    }

    /// The fields of the entry being read, as written: every field's bytes one after another
    /// in one buffer (one allocation an entry, not one a field), each field's place in a slot
    /// of its own (not a dictionary hashed a dozen times an entry). No String is made on the
    /// reading thread: the entry is made from its draft on another core.
    struct Draft {
        var text: [UInt8] = []
        fileprivate var slots = InlineArray<17, (range: Range<Int>, type: TextType, base: String?)?>(repeating: nil)
        var about: String?
        var alternate: (href: String, base: String?)?
        /// How good the alternate link is as the entry's page (`FeedXMLParser.alternateRank`):
        /// a better one read later takes its place.
        var alternateRank = 0
        /// Whether RSS's `guid` is a permalink (`isPermaLink` absent or true): the entry's
        /// link when it has no `link`.
        var guidIsPermaLink = false
        /// Whether it is an Atom entry (its text constructs say their type; RSS's are guessed).
        var isAtom = false
        /// The files it carries, as written (`FeedXMLParser.makeEntry` reads them).
        var enclosures: [(url: String, type: String?, length: String?, duration: String?, base: String?)] = []
        /// Its picture: Media RSS's thumbnail or iTunes's image, the first one given.
        var picture: (href: String, base: String?)?

        /// Keeps a file the entry carries, up to `Enclosure.mostPerEntry`.
        mutating func carry(_ url: String?, type: String?, length: String?, duration: String? = nil, base: String?) {
            guard let url, enclosures.count < Enclosure.mostPerEntry else { return }
            enclosures.append((url, type, length, duration, base))
        }

        init() { assert(Field.allCases.count == slots.count, "a slot for each field") }

        /// Keeps what `capture` wrote at the end of `text`; the first of a field wins (an Atom
        /// entry's first author is its author), and a later one's bytes are taken back.
        mutating func keep(_ capture: Capture) {
            guard slots[capture.field.rawValue] == nil else { return text.removeSubrange(capture.start...) }
            slots[capture.field.rawValue] = (capture.start..<text.count, capture.type, capture.base)
        }

        subscript(field: Field) -> Value? {
            slots[field.rawValue].map { (String(decoding: text[$0.range], as: UTF8.self), $0.type, $0.base) }
        }
    }

    /// A field's value: its text, what the text is, the base it was read under.
    typealias Value = (text: String, type: TextType, base: String?)
}
