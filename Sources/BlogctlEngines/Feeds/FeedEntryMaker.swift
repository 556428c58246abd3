#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import CoreKit

/// A feed entry made from its draft (`FeedXMLParser.Draft`, the bytes of its fields as read):
/// its text constructs made plain or HTML, its links absolute against its base and the
/// feed's URL, its dates read, its files gathered, its id chosen. Separate from the reading,
/// which hands each draft to `FeedEntryAssembly` as its end tag is read.
package struct FeedEntryMaker {
    package typealias Draft = FeedXMLParser.Draft
    package typealias Value = FeedXMLParser.Value

    let url: String
    let bases = Bases()

    /// A text construct as plain text.
    func plain(_ value: Value?) throws(ToolError) -> String {
        guard let value = value.map(Self.decoded) else { return "" }
        return value.type == .text ? FeedText.collapsed(value.text) : try FeedText.plain(fromHTML: value.text)
    }

    /// A text construct as HTML.
    func html(_ value: Value) -> String {
        let value = Self.decoded(value)
        return value.type == .text ? FeedText.html(fromPlain: value.text) : value.text
    }

    /// A base64 construct as the text or HTML it encodes (as UTF-8; one that is not base64 is
    /// empty), any other as it is.
    static func decoded(_ value: Value) -> Value {
        switch value.type {
        case .base64Text, .base64HTML:
            let text = Base64.decode(value.text).map { String(decoding: $0, as: UTF8.self) } ?? ""
            return (text, value.type == .base64Text ? .text : .html, value.base)
        default: return value
        }
    }

    func makeEntry(_ draft: Draft) throws(ToolError) -> FeedEntry {
        var titleSource = draft[.title] ?? draft[.dcTitle] ?? draft[.mediaTitle]
        // RSS never says what a title is: HTML when it looks so, as feedparser guesses.
        if !draft.isAtom, let source = titleSource, source.type == .text, FeedText.looksLikeHTML(source.text) { titleSource?.type = .html }
        let title = try plain(titleSource)
        let link = draft[.link].flatMap { absolute($0.text, base: $0.base) }
            ?? draft.alternate.flatMap { absolute($0.href, base: $0.base) }
            ?? (draft.guidIsPermaLink ? draft[.id].flatMap(permalink) : nil)
            ?? draft.player.flatMap { absolute($0.href, base: $0.base) }
        let summarySource = draft[.description] ?? draft[.summary] ?? draft[.mediaDescription]
        let bodySource = draft[.content] ?? summarySource
        let publishedText = draft[.published]?.text
        let published = publishedText.flatMap(FeedDate.parse)
        let updated = draft[.updated].flatMap { FeedDate.parse($0.text) }
        var author = FeedText.collapsed(draft[.creator]?.text ?? draft[.authorName]?.text ?? "")
        if author.isEmpty, let email = draft[.author]?.text { author = Self.name(inEmail: email) }
        let guid = FeedText.collapsed(draft[.id]?.text ?? "")
        let id = !guid.isEmpty ? guid : draft.about.map(FeedText.collapsed) ?? link
            ?? FeedEntry.hashedID(title + "\u{0}" + (publishedText ?? draft[.updated]?.text ?? ""))
        return FeedEntry(id: FeedEntry.acceptedID(id.isEmpty ? FeedEntry.hashedID(title) : id), title: title, link: link,
                         author: author.isEmpty ? nil : author, published: published, updated: updated,
                         summary: try plain(summarySource), body: bodySource.map(html) ?? "",
                         base: bodySource?.base ?? url, enclosures: enclosures(of: draft),
                         picture: draft.picture.flatMap { absolute($0.href, base: $0.base) })
    }

    /// The files `draft` carries, each URL once (a podcast names its file as an `enclosure`
    /// and again as `media:content`: the first says it, the second adds what it lacks), the
    /// iTunes duration given to the first that has none.
    func enclosures(of draft: Draft) -> [Enclosure] {
        var made: [Enclosure] = []
        for raw in draft.enclosures {
            guard let url = absolute(raw.url, base: raw.base) else { continue }
            let type = Enclosure.type(raw.type), length = Enclosure.length(raw.length), duration = Enclosure.seconds(raw.duration)
            if let same = made.firstIndex(where: { $0.url.utf8.elementsEqual(url.utf8) }) {
                made[same].type = made[same].type ?? type
                made[same].length = made[same].length ?? length
                made[same].duration = made[same].duration ?? duration
            } else {
                made.append(Enclosure(url: url, type: type, length: length, duration: duration))
            }
        }
        if !made.isEmpty, made[0].duration == nil { made[0].duration = Enclosure.seconds(draft[.itunesDuration]?.text) }
        return made
    }

    /// A permalink guid as the entry's link: only a URL of its own (many feeds leave
    /// `isPermaLink` out of guids that are numbers, which would read as paths).
    func permalink(_ guid: Value) -> String? {
        let text = FeedText.collapsed(guid.text)
        // The scheme's bytes, ASCII lower case: a mark after `//` must not hide it.
        let scheme = text.utf8.prefix(8).map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }
        guard scheme.starts(with: "http://".utf8) || scheme.starts(with: "https://".utf8) else { return nil }
        return absolute(text, base: guid.base)
    }

    /// RSS's `author` is an e-mail address, often `jo@example.com (Jo Smith)`: the name when
    /// it is given, else the address.
    static func name(inEmail text: String) -> String {
        let bytes = Array(FeedText.collapsed(text).utf8)
        if let open = bytes.firstIndex(of: UInt8(ascii: "(")), let close = bytes.lastIndex(of: UInt8(ascii: ")")), open < close {
            let name = FeedText.collapsed(String(decoding: bytes[(open + 1)..<close], as: UTF8.self))
            if !name.isEmpty { return name }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `reference` read against `base` (then the feed's URL): absolute http(s), or nil.
    func absolute(_ reference: String, base: String?) -> String? {
        let reference = FeedText.collapsed(reference)
        guard !reference.isEmpty else { return nil }
        // An absolute URL as parsing leaves it is its own answer, whatever the base.
        if let unchanged = URLReference.unchangedAbsolute(reference) { return unchanged }
        // The element's base, then the feed's URL (no array of the two made for each link);
        // an absolute path that needs no normalising the short way.
        func against(_ base: String) -> String? {
            bases.read(base).flatMap { $0.absoluteOfUnchangedPath(reference) ?? $0.resolving(reference)?.absolute }
        }
        if let base, let resolved = against(base) { return resolved }
        if base != url, let resolved = against(url) { return resolved }
        return URLReference(reference)?.absolute
    }

    /// The last base read as a URL: a feed's entries share one or two, so none is read again
    /// for each link.
    package final class Bases {
        private var last: (text: String, reference: URLReference?)?

        func read(_ text: String) -> URLReference? {
            if let last, Self.sameBytes(last.text, text) { return last.reference }
            let reference = URLReference(text)
            last = (text, reference)
            return reference
        }

        /// Byte for byte, by memcmp over each String's own bytes (`elementsEqual` stepped
        /// through them for each link).
        static func sameBytes(_ left: String, _ right: String) -> Bool {
            guard left.utf8.count == right.utf8.count else { return false }
            let compared = left.utf8.withContiguousStorageIfAvailable { a -> Bool? in
                right.utf8.withContiguousStorageIfAvailable { b in a.isEmpty || memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0 }
            }
            return (compared ?? nil) ?? left.utf8.elementsEqual(right.utf8)
        }
    }
}
