import CoreKit

/// What `FeedXMLParser` captures while it reads: the fields of an entry (or of the feed), each
/// from its start tag to its end, and the entry's fields so far.
extension FeedXMLParser {
    /// A field of an entry (or of the feed), captured from its start to its end.
    package enum Field: Int, CaseIterable {
        case title, link, id, description, content, summary, author, authorName, published, updated, creator
        case feedTitle, feedLink
        /// Fallbacks, for an entry without its own: Dublin Core's title, Media RSS's title and
        /// description (YouTube's feeds carry an entry's text only there).
        case dcTitle, mediaTitle, mediaDescription
        /// iTunes's episode length, for the entry's first enclosure when it says none.
        case itunesDuration
    }

    /// What a captured field's text is (Atom's `type`; RSS's description and content are HTML).
    package enum TextType {
        case text, html, xhtml
        /// Atom 0.3's `mode="base64"`: the text or HTML, base64-encoded.
        case base64Text, base64HTML
    }

    /// What is being captured: the field, its depth, its type, and where its text starts in
    /// the bytes of the draft it belongs to (the entry's, or the feed's own).
    package struct Capture {
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

    /// The fields of the entry being read (`FeedEntryDraft`).
    package typealias Draft = FeedEntryDraft

    /// A field's value: its text, what the text is, the base it was read under.
    package typealias Value = (text: String, type: TextType, base: String?)
}
