import FoundationEssentials
import CoreKit

/// What a server sent, read as a feed: its kind from the content type, then from the document
/// itself, never from the URL's spelling; its encoding as RFC 7303 says (the HTTP charset over
/// the XML declaration; a byte order mark over both), with a
/// latin-1 or ASCII label read as windows-1252, as browsers and feedparser read it.
public enum FeedDocument {
    public enum Kind: Equatable, Sendable {
        case xml
        case json
        /// A web page, which may link to its feeds.
        case html
    }

    /// The kind of a document served as `contentType` starting with `head`.
    public static func kind(contentType: String?, head: some Collection<UInt8>) -> Kind {
        let type = mediaType(contentType)
        if type == "application/feed+json" || type == "application/json" { return .json }
        if ["application/rss+xml", "application/atom+xml", "application/rdf+xml"].contains(type) { return .xml }
        // Generic or wrong types (text/html for RSS is common): the document says.
        var bytes = head.drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3).drop { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 } }
        if bytes.first == UInt8(ascii: "{") { return .json }
        // ASCII lower case, byte by byte: markup names are ASCII.
        let start = bytes.prefix(1024).map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }
        func has(_ word: String) -> Bool {
            let word = Array(word.utf8)
            return start.count >= word.count && (0...(start.count - word.count)).contains { start[$0..<$0 + word.count].elementsEqual(word) }
        }
        if start.starts(with: "<!doctype html".utf8) || start.starts(with: "<html".utf8) { return .html }
        if type == "text/html", !start.starts(with: "<?xml".utf8), !has("<rss"), !has("<feed"), !has("<rdf:rdf") { return .html }
        return .xml
    }

    /// Whether a document says it is a feed (its Content-Type names RSS, Atom, JSON Feed or
    /// XML, or it opens with an XML declaration): one that then cannot be read is a broken
    /// feed, not some other kind of page.
    package static func claimsToBeAFeed(contentType: String?, head: some Collection<UInt8>) -> Bool {
        let type = Array((contentType ?? "").asciiLowercased.utf8)
        return head.prefix(64).starts(with: Array("<?xml".utf8))
            || ["rss", "atom", "feed+json", "xml"].contains { type.firstRange(of: Array($0.utf8)) != nil }
    }

    /// The feed in `data`, served from `url` as `contentType`. A web page is not a feed: the
    /// caller looks for its feeds with `FeedDiscovery`.
    public static func parse(_ data: Data, url: String, contentType: String?) throws(ToolError) -> Feed {
        let reader = Reader(url: url, contentType: contentType)
        var failure: ToolError?
        repeat {
            data.withUnsafeBytes { bytes in
                do throws(ToolError) { try reader.add(bytes.bindMemory(to: UInt8.self)) } catch { failure = error }
            }
            if let failure { throw failure }
        } while try reader.readsAgain()
        guard case .feed(let feed) = try reader.finish() else { throw .protocolViolation(url: url, detail: "a web page, not a feed") }
        return feed
    }

    /// A document read as it arrives, in pieces (`add`), for a body inflated as it is read:
    /// its kind is known from its first kilobyte and the content type; a feed in XML goes to
    /// libxml2's push parser piece by piece, so the whole is never held (a feed of 100,000
    /// entries is 46 MB); a JSON Feed is read in two passes (`readsAgain`), never held; a web
    /// page is kept whole, as `FeedDiscovery` needs it.
    public final class Reader {
        public enum Read: Sendable {
            case feed(Feed)
            /// A web page, whole: the caller looks for its feeds (`FeedDiscovery`).
            case page([UInt8])
        }

        let url: String
        let contentType: String?
        /// Where the entries go, when they are not to be kept in the `Feed`.
        let sink: FeedEntrySink?
        /// Where an XML feed's drafts go, when the caller makes its entries (a JSON Feed's
        /// entries still go to `sink`).
        let drafts: FeedDraftSink?
        /// What came before the kind was known, and all of a page.
        private var held: [UInt8] = []
        private var kind: Kind?
        private var xml: FeedXMLParser.Reading?
        private var json: JSONFeedParser.Reading?

        public convenience init(url: String, contentType: String?) {
            self.init(url: url, contentType: contentType, sink: nil)
        }

        package init(url: String, contentType: String?, sink: FeedEntrySink?, drafts: FeedDraftSink? = nil) {
            self.url = url
            self.contentType = contentType
            self.sink = sink
            self.drafts = drafts
        }

        public func add(_ piece: UnsafeBufferPointer<UInt8>) throws(ToolError) {
            if let xml {
                xml.stream.feed(UnsafeRawBufferPointer(piece))
                return
            }
            if let json { return try json.add(piece) }
            held.append(contentsOf: piece)
            if kind == nil, held.count >= 1024 { try decide() }
        }

        /// Whether the whole document must be handed again, from its start, before `finish`: a
        /// JSON Feed's items are read on a second pass, once the feed's own fields are known.
        public func readsAgain() throws(ToolError) -> Bool {
            if kind == nil { try decide() }
            guard let json, json.pass == .feed else { return false }
            try json.startItems()
            return true
        }

        public func finish() throws(ToolError) -> Read {
            if kind == nil { try decide() }
            if let xml { return .feed(try xml.finish()) }
            if let json {
                precondition(json.pass == .items, "a JSON Feed finished before its second pass (readsAgain)")
                return .feed(try json.finish())
            }
            return .page(held)
        }

        /// The kind, from the first kilobyte; an XML feed's stream is started with what is held.
        private func decide() throws(ToolError) {
            let kind = FeedDocument.kind(contentType: contentType, head: held.prefix(1024))
            self.kind = kind
            if kind == .json {
                let json = JSONFeedParser.Reading(url: url, sink: sink)
                try held.withUnsafeBufferPointer { piece throws(ToolError) in try json.add(piece) }
                held = []
                self.json = json
            }
            guard kind == .xml else { return }
            let encoding = xmlEncoding(contentType: contentType, head: Array(held.prefix(1024)))
            let xml = try FeedXMLParser.Reading(url: url, encoding: encoding.name, sink: sink, drafts: drafts)
            held.withUnsafeBytes { xml.stream.feed(UnsafeRawBufferPointer(rebasing: $0[min(encoding.skip, $0.count)...])) }
            held = []
            self.xml = xml
        }
    }

    /// `type/subtype` of a Content-Type, lower case, without parameters.
    static func mediaType(_ contentType: String?) -> String {
        guard let contentType else { return "" }
        let type = contentType.utf8.split(separator: UInt8(ascii: ";"), maxSplits: 1, omittingEmptySubsequences: false).first ?? []
        return FeedText.collapsed(String(decoding: type, as: UTF8.self)).lowercased()
    }

    /// The `charset` parameter of a Content-Type, lower case, unquoted.
    static func charset(_ contentType: String?) -> String? {
        guard let contentType else { return nil }
        for parameter in contentType.utf8.split(separator: UInt8(ascii: ";")).dropFirst() {
            let pair = parameter.split(separator: UInt8(ascii: "="), maxSplits: 1)
            guard pair.count == 2, FeedText.collapsed(String(decoding: pair[0], as: UTF8.self)).lowercased() == "charset" else { continue }
            var value = Array(FeedText.collapsed(String(decoding: pair[1], as: UTF8.self)).utf8)
            if value.count >= 2, value.first == UInt8(ascii: "\""), value.last == UInt8(ascii: "\"") { value = Array(value.dropFirst().dropLast()) }
            return value.isEmpty ? nil : String(decoding: value, as: UTF8.self).lowercased()
        }
        return nil
    }

    /// The encoding to hand libxml2 instead of the declaration's (nil to let the document
    /// say), and how many bytes of byte order mark to skip: a mark's encoding first; then the
    /// HTTP charset (RFC 7303 §3.2); latin-1 and ASCII labels, from either place, read as
    /// windows-1252. (libxml2 2.9 lets a declaration override a mark, and keeps the mark as
    /// text when told the encoding: the mark is said and skipped here.)
    static func xmlEncoding(contentType: String?, head: [UInt8]) -> (name: String?, skip: Int) {
        if head.starts(with: [0xEF, 0xBB, 0xBF]) { return ("UTF-8", 3) }
        if head.starts(with: [0xFE, 0xFF]) { return ("UTF-16BE", 2) }
        if head.starts(with: [0xFF, 0xFE]) { return ("UTF-16LE", 2) }
        let label = charset(contentType) ?? declaredEncoding(head)
        guard let label else { return (nil, 0) }
        if ["iso-8859-1", "latin1", "latin-1", "l1", "us-ascii", "ascii", "iso_8859-1", "cp819", "ibm819"].contains(label) {
            return ("windows-1252", 0)
        }
        return (charset(contentType) == nil ? nil : label, 0)
    }

    /// The encoding an XML declaration names, lower case, or nil.
    static func declaredEncoding(_ head: [UInt8]) -> String? {
        guard head.starts(with: Array("<?xml".utf8)), let end = head.firstIndex(of: UInt8(ascii: ">")) else { return nil }
        let declaration = Array(head[..<end])
        let word = Array("encoding".utf8)
        guard let at = (0..<max(declaration.count - word.count + 1, 0)).first(where: { declaration[$0..<$0 + word.count].elementsEqual(word) })
        else { return nil }
        var rest = declaration[(at + word.count)...].drop { $0 == 0x20 || $0 == UInt8(ascii: "=") }
        guard let quote = rest.first, quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else { return nil }
        rest = rest.dropFirst()
        guard let close = rest.firstIndex(of: quote) else { return nil }
        return String(decoding: rest[..<close], as: UTF8.self).lowercased()
    }
}
