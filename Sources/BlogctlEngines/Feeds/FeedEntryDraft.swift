import CoreKit

/// The fields of the entry being read, as written: every field's bytes one after another
/// in one buffer (one allocation an entry, not one a field), each field's place in a slot
/// of its own (not a dictionary hashed a dozen times an entry). No String is made while the
/// draft is read: the entry is made from it after (for a big feed read aside, on the
/// library's queue while the reader goes on).
package struct FeedEntryDraft: Sendable {
    var text: [UInt8] = []
    /// The bytes its fields hold.
    package var byteCount: Int { text.count }
    private var slots = InlineArray<17, (range: Range<Int>, type: FeedXMLParser.TextType, base: String?)?>(repeating: nil)
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
    /// The files it carries, as written (`FeedEntryMaker` reads them).
    var enclosures: [(url: String, type: String?, length: String?, duration: String?, base: String?)] = []
    /// Its picture: Media RSS's thumbnail or iTunes's image, the first one given.
    var picture: (href: String, base: String?)?
    /// Media RSS's player (a video's page), the first one given: its link when it has no other.
    var player: (href: String, base: String?)?

    /// Keeps a file the entry carries, up to `Enclosure.mostPerEntry`.
    mutating func carry(_ url: String?, type: String?, length: String?, duration: String? = nil, base: String?) {
        guard let url, enclosures.count < Enclosure.mostPerEntry else { return }
        enclosures.append((url, type, length, duration, base))
    }

    init() { assert(FeedXMLParser.Field.allCases.count == slots.count, "a slot for each field") }

    /// Keeps what `capture` wrote at the end of `text`; the first of a field wins (an Atom
    /// entry's first author is its author), and a later one's bytes are taken back.
    mutating func keep(_ capture: FeedXMLParser.Capture) {
        guard slots[capture.field.rawValue] == nil else { return text.removeSubrange(capture.start...) }
        slots[capture.field.rawValue] = (capture.start..<text.count, capture.type, capture.base)
    }

    subscript(field: FeedXMLParser.Field) -> FeedXMLParser.Value? {
        slots[field.rawValue].map { (String(decoding: text[$0.range], as: UTF8.self), $0.type, $0.base) }
    }
}
