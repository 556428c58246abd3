import CoreKit

/// What `FeedXMLParser` captures while it reads: the fields of an entry (or of the feed), each
/// from its start tag to its end, and the entry's fields so far.
extension FeedXMLParser {
    /// A field of an entry (or of the feed), captured from its start to its end.
    enum Field: Int, CaseIterable {
        case title, link, id, description, content, summary, author, authorName, published, updated, creator
        case feedTitle, feedLink
    }

    /// What a captured field's text is (Atom's `type`; RSS's description and content are HTML).
    enum TextType {
        case text, html, xhtml
    }

    /// What is being captured: the field, its depth, its type, its text so far.
    struct Capture {
        var field: Field
        var depth: Int
        var type: TextType
        var base: String?
        var text: [UInt8] = []
        /// The XHTML elements open inside it, for their end tags.
        var elements: [String] = []

        /// Text, escaped when the field is XHTML; a field past its bound is cut there, so a
        /// hostile feed's endless title grows nothing.
        mutating func append(_ text: UnsafeBufferPointer<UInt8>) {
            if type == .xhtml { add(FeedText.escaped(String(decoding: text, as: UTF8.self))) } else { add(text) }
        }

        /// An XHTML element's start tag, serialised again as HTML (no-namespace attributes).
        mutating func open(_ element: FeedXMLElement) {
            elements.append(element.name)
            var tag = "<" + element.name
            for attribute in element.attributes where attribute.namespace.isEmpty {
                tag += " " + attribute.name + "=\"" + FeedText.escaped(attribute.value) + "\""
            }
            add(tag + ">")
        }

        mutating func close() {
            guard let name = elements.popLast(), !FeedXMLParser.voidElements.contains(name) else { return }
            add("</" + name + ">")
        }

        private mutating func add(_ piece: String) {
            let room = FeedXMLParser.largest(field) - text.count
            if room > 0 { text.append(contentsOf: piece.utf8.prefix(room)) }
        }

        private mutating func add(_ piece: UnsafeBufferPointer<UInt8>) {
            let room = FeedXMLParser.largest(field) - text.count
            if room > 0 { text.append(contentsOf: piece.prefix(room)) }
        }
    }

    /// The fields of the entry being read, as written.
    struct Draft {
        /// Each field's value by its raw value: a slot each, not a dictionary hashed a dozen
        /// times an entry (a tenth of a 100,000-entry feed's parse went to hashing).
        var values = Values()
        var about: String?
        var alternate: (href: String, base: String?)?

        /// Keeps the capture's text (the first of a field wins: an Atom entry's author is its
        /// first author) as bytes in a buffer of their own: no String is made on the reading
        /// thread (the entry is made on another core), and `capture.text` may be used again.
        mutating func keep(_ capture: Capture) {
            guard !values.has(capture.field) else { return }
            // A copy of its own size (`Array(text[...])` would share the buffer, and its room).
            let text = capture.text.withUnsafeBufferPointer { Array($0) }
            values.slots[capture.field.rawValue] = (text, capture.type, capture.base)
        }
    }

    /// A field's value: its text as UTF-8, what the text is, the base it was read under.
    typealias Value = (text: String, type: TextType, base: String?)

    /// An entry's fields in place (no array allocated per entry), as read: bytes, made Strings
    /// when asked for.
    struct Values {
        fileprivate var slots = InlineArray<13, (bytes: [UInt8], type: TextType, base: String?)?>(repeating: nil)

        init() { assert(Field.allCases.count == slots.count, "a slot for each field") }

        func has(_ field: Field) -> Bool { slots[field.rawValue] != nil }

        subscript(field: Field) -> Value? {
            slots[field.rawValue].map { (String(decoding: $0.bytes, as: UTF8.self), $0.type, $0.base) }
        }
    }
}
