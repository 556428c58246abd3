import FoundationEssentials
import CoreKit

/// RSS (0.90, 0.9x, 1.0, 2.0) and Atom (0.3, 1.0) read from libxml2's push parser into a `Feed`,
/// one event at a time, as feedparser reads them: RSS's `content:encoded` before its
/// `description`, `dc:creator` and `dc:date`, Atom's typed text constructs (`text`, `html`,
/// `xhtml`), `xml:base` at every level (the stream gives each element its base).
package struct FeedXMLParser {
    package enum Namespace {
        static let atom10 = "http://www.w3.org/2005/Atom"
        static let atom03 = "http://purl.org/atom/ns#"
        static let rss10 = "http://purl.org/rss/1.0/"
        static let rss090 = "http://my.netscape.com/rdf/simple/0.9/"
        static let rdf = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
        static let dc = "http://purl.org/dc/elements/1.1/"
        static let content = "http://purl.org/rss/1.0/modules/content/"
        static let dcterms = "http://purl.org/dc/terms/"
        static let media = "http://search.yahoo.com/mrss/"
        static let itunes = "http://www.itunes.com/dtds/podcast-1.0.dtd"
    }

    let url: String
    private(set) var format: FeedFormat?
    private var depth = 0
    private var entryDepth: Int?
    private var capture: Capture?
    /// How many bytes the last entry's fields held: the next draft's room, made at once
    /// rather than at every doubling.
    private var lastDraftSize = 0
    private var draft = Draft()
    private var feed = Draft()
    /// Where each entry's draft goes once its end tag is read (set by `Reading`): made into
    /// an entry here, or handed to the caller's `drafts`.
    private var assembly: FeedEntryAssembly?
    private var drafts: FeedDraftSink?
    private var failure: ToolError?
    /// The feed's own title and link made plain and absolute as an entry's are.
    let maker: FeedEntryMaker

    init(url: String) {
        self.url = url
        maker = FeedEntryMaker(url: url)
    }

    /// The feed `write` hands to the stream, piece by piece; a document that is not RSS or
    /// Atom is a protocol violation.
    static func parse(url: String, encoding: String?,
                      write: (FeedXMLStream) throws(ToolError) -> Void) throws(ToolError) -> Feed {
        let reading = try Reading(url: url, encoding: encoding)
        try write(reading.stream)
        return try reading.finish()
    }

    /// A feed being read as its pieces arrive (`stream.feed`), for a caller that gets them
    /// one at a time (a gzip body as it is inflated): the whole document is never held.
    package final class Reading {
        private var parser: FeedXMLParser
        private(set) var stream: FeedXMLStream!

        private let assembly: FeedEntryAssembly

        init(url: String, encoding: String?, sink: FeedEntrySink? = nil, drafts: FeedDraftSink? = nil) throws(ToolError) {
            parser = FeedXMLParser(url: url)
            assembly = FeedEntryAssembly(url: url, sink: sink)
            if let drafts { parser.drafts = drafts } else { parser.assembly = assembly }
            // unowned(unsafe): the stream is this object's own and calls back only while it is
            // fed, so `self` outlives every call; `unowned` paid a strong retain and release
            // for each of a big feed's million events.
            stream = try FeedXMLStream(url: url, encoding: encoding) { [unowned(unsafe) self] node in
                let goesOn = self.parser.visit(node)
                self.stream.wantsText = self.parser.isCapturing
                return goesOn
            }
        }

        /// The end of the document: the feed, or why it is none.
        func finish() throws(ToolError) -> Feed {
            stream.finish()
            let assembled = assembly.finish()
            if let failure = parser.failure ?? assembled.failure { throw failure }
            guard let format = parser.format else {
                throw .protocolViolation(url: parser.url, detail: stream.problems > 0 ? "not XML: " + (stream.firstProblem ?? "unreadable") : "an empty document")
            }
            return Feed(format: format, title: try parser.feedTitle(), link: parser.feedLink(), entries: assembled.entries,
                        problems: stream.problems, firstProblem: stream.firstProblem, renamed: assembled.renamed)
        }
    }

    mutating func visit(_ node: FeedXMLNode) -> Bool {
        switch node {
        case .start(let element):
            depth += 1
            if format == nil {
                guard let format = Self.format(of: element) else {
                    failure = .protocolViolation(url: url, detail: "not a feed: its root element is <\(Terminal.sanitizeField(element.name))>")
                    return false
                }
                self.format = format
                return true
            }
            if capture?.type == .xhtml {
                capturing { $0.open(element, to: &$1) }
                return true
            }
            if capture != nil { return true }
            start(element)
        case .end:
            defer { depth -= 1 }
            // Never a copy of the capture while it grows: its text would be copied at each step.
            if let captureDepth = capture?.depth {
                if depth == captureDepth, let done = capture {
                    capture = nil
                    isCapturing = false
                    if entryDepth != nil { draft.keep(done) } else { feed.keep(done) }
                } else if capture?.type == .xhtml {
                    capturing { $0.close(to: &$1) }
                }
                return true
            }
            if depth == entryDepth {
                finishEntry()
                entryDepth = nil
            }
        case .text(let text):
            capturing { $0.append(text, to: &$1) }
        }
        return true
    }

    /// The most bytes a field keeps: a body (content, description, summary) as much as the
    /// cache keeps of a post's; a title, a name, a date or a link a few pages.
    static func largest(_ field: Field) -> Int {
        switch field {
        case .content, .description, .summary: 16 << 20
        default: 64 << 10
        }
    }

    /// HTML's elements without an end tag: `<br></br>` would be two line breaks.
    static let voidElements: Set<String> = ["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
                                            "param", "source", "track", "wbr"]

    static func format(of root: FeedXMLElement) -> FeedFormat? {
        switch (root.name, root.namespace) {
        case ("rss", ""): return (root.attribute("version") ?? "").hasPrefix("2") ? .rss20 : .rss09x
        case ("RDF", Namespace.rdf): return .rss10
        case ("feed", Namespace.atom10): return .atom10
        case ("feed", Namespace.atom03): return .atom03
        default: return nil
        }
    }

    /// Whether text is kept now (only a captured field's is): `capture != nil`, kept as a
    /// stored flag that `Reading` reads after each event without copying the parser.
    private(set) var isCapturing = false

    private var isAtom: Bool { format == .atom10 || format == .atom03 }

    private mutating func start(_ element: FeedXMLElement) {
        let rss = element.namespace.isEmpty || element.namespace == Namespace.rss10 || element.namespace == Namespace.rss090
        let atom = element.namespace == Namespace.atom10 || element.namespace == Namespace.atom03
        if entryDepth == nil {
            if (rss && !isAtom && element.kind == .item) || (atom && element.kind == .entry) {
                entryDepth = depth
                draft = Draft()
                draft.isAtom = isAtom
                draft.text.reserveCapacity(lastDraftSize)
                draft.about = element.attribute("about", namespace: Namespace.rdf)
                if element.namespace == Namespace.rss090 { format = .rss090 }
                return
            }
            // The feed's own title and page: children of the channel (RSS) or the feed (Atom).
            if element.kind == .title, (rss && !isAtom && depth == 3) || (atom && depth == 2) {
                begin(.feedTitle, element)
            } else if element.kind == .link, rss, !isAtom, depth == 3 {
                begin(.feedLink, element)
            } else if element.kind == .link, atom, depth == 2, Self.isAlternate(element), feed.alternate == nil,
                      let href = element.attribute("href") {
                feed.alternate = (href, element.base)
            }
            return
        }
        let field: Field?
        switch (element.kind, element.namespace) {
        case (.title, _) where rss || atom: field = depth == entryDepth! + 1 ? .title : nil
        case (.link, _) where rss && !isAtom: field = .link
        case (.link, _) where atom:
            if element.attribute("rel") == "enclosure" {
                draft.carry(element.attribute("href"), type: element.attribute("type"), length: element.attribute("length"), base: element.base)
            } else if Self.isAlternate(element), let href = element.attribute("href") {
                let rank = Self.alternateRank(href: href, type: element.attribute("type"))
                if rank > draft.alternateRank {
                    draft.alternate = (href, element.base)
                    draft.alternateRank = rank
                }
            }
            field = nil
        case (.guid, _) where rss:
            draft.guidIsPermaLink = (element.attribute("isPermaLink") ?? "true").lowercased() == "true"
            field = .id
        case (.id, _) where atom: field = .id
        case (.description, _) where rss: field = .description
        case (.encoded, Namespace.content): field = .content
        case (.content, _) where atom: field = element.attribute("src") == nil ? .content : nil
        case (.summary, _) where atom: field = .summary
        case (.author, _) where rss && !isAtom: field = .author
        case (.name, _) where atom: field = depth == entryDepth! + 2 ? .authorName : nil
        case (.creator, Namespace.dc): field = .creator
        case (.title, Namespace.dc): field = .dcTitle
        case (.enclosure, _) where rss && !isAtom:
            draft.carry(element.attribute("url"), type: element.attribute("type"), length: element.attribute("length"), base: element.base)
            field = nil
        case (.content, Namespace.media):
            draft.carry(element.attribute("url"), type: element.attribute("type"), length: element.attribute("fileSize"),
                        duration: element.attribute("duration"), base: element.base)
            field = nil
        case (.thumbnail, Namespace.media), (.image, Namespace.itunes):
            if draft.picture == nil, let href = element.attribute(element.kind == .image ? "href" : "url") { draft.picture = (href, element.base) }
            field = nil
        case (.player, Namespace.media):
            if draft.player == nil, let url = element.attribute("url") { draft.player = (url, element.base) }
            field = nil
        case (.duration, Namespace.itunes): field = .itunesDuration
        case (.title, Namespace.media): field = .mediaTitle
        case (.description, Namespace.media): field = .mediaDescription
        case (.issued, Namespace.dcterms), (.created, Namespace.dcterms): field = .published
        case (.modified, Namespace.dcterms): field = .updated
        case (.pubDate, _) where rss: field = .published
        case (.date, Namespace.dc): field = .published
        case (.published, _) where atom, (.issued, _) where atom, (.created, _) where atom: field = .published
        case (.updated, _) where atom, (.modified, _) where atom: field = .updated
        default: field = nil
        }
        if let field { begin(field, element) }
    }

    private mutating func begin(_ field: Field, _ element: FeedXMLElement) {
        var type = TextType.text
        let textConstruct = switch field {
        case .title, .summary, .content, .feedTitle: true
        default: false
        }
        if isAtom, textConstruct {
            // Atom 1.0's words, and Atom 0.3's MIME types (with mode="escaped" meaning html).
            let mode = element.attribute("mode")
            switch element.attribute("type") ?? "text" {
            case "html", "text/html": type = mode == "base64" ? .base64HTML : .html
            case "xhtml", "application/xhtml+xml": type = mode == "escaped" ? .html : mode == "base64" ? .base64HTML : .xhtml
            default: type = mode == "escaped" ? .html : mode == "base64" ? .base64Text : .text
            }
        } else if field == .description || field == .content {
            type = .html
        } else if field == .mediaTitle || field == .mediaDescription {
            // Media RSS says `type="plain"` or `"html"`; plain when it says nothing.
            type = element.attribute("type") == "html" ? .html : .text
        }
        isCapturing = true
        capture = Capture(field: field, depth: depth, type: type, base: element.base,
                          start: entryDepth != nil ? draft.text.count : feed.text.count)
    }

    /// `body` given the capture and the bytes it writes to: the entry's draft's, or the feed's.
    private mutating func capturing(_ body: (inout Capture, inout [UInt8]) -> Void) {
        guard capture != nil else { return }
        if entryDepth != nil { body(&capture!, &draft.text) } else { body(&capture!, &feed.text) }
    }

    /// Whether a link's `type` is a page a browser shows: HTML or XHTML, or no type said.
    static func isHTML(_ type: String?) -> Bool {
        guard let type else { return true }
        let media = FeedDocument.mediaType(type)
        return media == "text/html" || media == "application/xhtml+xml"
    }

    /// An alternate link's rank as the entry's page, as readers choose it: a web page of a
    /// type a browser shows (HTML, or none said) first, then any other http(s) link (a
    /// `text/plain` one), then the rest (`gemini:`, `gopher:`), which the entry's link never
    /// is (`absolute` keeps http and https alone).
    static func alternateRank(href: String, type: String?) -> Int {
        guard isWeb(href) else { return 1 }
        return isHTML(type) ? 3 : 2
    }

    /// Whether `reference` is http(s), or relative (read against the feed's http(s) URL).
    static func isWeb(_ reference: String) -> Bool {
        let text = FeedText.collapsed(reference)
        guard let schemeEnd = text.schemeEnd else { return true }
        let scheme = text.utf8[..<schemeEnd].dropLast(3)
        return scheme.count <= 5 && ["http", "https"].contains(String(decoding: scheme, as: UTF8.self).asciiLowercased)
    }

    static func isAlternate(_ link: FeedXMLElement) -> Bool {
        let rel = link.attribute("rel") ?? "alternate"
        return rel == "alternate" || rel == "http://www.iana.org/assignments/relation/alternate"
    }

    private mutating func finishEntry() {
        lastDraftSize = min(draft.text.count, 1 << 16)
        if let drafts { drafts.take(draft) } else { assembly?.add(draft) }
    }

    func feedTitle() throws(ToolError) -> String { try maker.plain(feed[.feedTitle]) }

    func feedLink() -> String? {
        feed[.feedLink].flatMap { maker.absolute($0.text, base: $0.base) } ?? feed.alternate.flatMap { maker.absolute($0.href, base: $0.base) }
    }

}
