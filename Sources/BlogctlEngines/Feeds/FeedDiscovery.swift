import CoreKit

/// The feeds a web page names, as browsers and newsboat find them: each element with
/// `rel="alternate"` and a feed's type (RSS, Atom, JSON Feed) and an `href`, in document order,
/// read against the page's URL, or its first `<base href>` as browsers read it. The page goes
/// through the same libxml2 HTML parser as bodies.
public enum FeedDiscovery {
    public struct Link: Sendable, Equatable {
        public var url: String
        public var type: String
        public var title: String
    }

    static let feedTypes: Set<String> = ["application/rss+xml", "application/atom+xml", "application/rdf+xml",
                                         "application/feed+json", "application/json", "application/xml", "text/xml"]

    public static func links(inHTML html: [UInt8], url: String) throws(ToolError) -> [Link] {
        var links: [Link] = []
        var seen: Set<String> = []
        var base = URLReference(url)
        var baseSeen = false
        let stream = try HTMLStream { event in
            guard case .enter(let tag, let attributes) = event, let href = attributes.value("href") else { return }
            if tag == .documentBase {
                // The first <base> with an href counts (HTML's "frozen base URL"); relative to the page.
                if !baseSeen, let resolved = base?.resolving(FeedText.collapsed(href)) ?? URLReference(FeedText.collapsed(href)) {
                    base = resolved
                }
                baseSeen = true
                return
            }
            guard let rel = attributes.value("rel"), let type = attributes.value("type") else { return }
            // rel is a list of words, any case.
            let words = rel.lowercased().utf8.split { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A }.map { String(decoding: $0, as: UTF8.self) }
            let kind = FeedDocument.mediaType(type)
            guard words.contains("alternate"), feedTypes.contains(kind),
                  let resolved = (base?.resolving(FeedText.collapsed(href)) ?? URLReference(FeedText.collapsed(href)))?.absolute,
                  seen.insert(resolved).inserted else { return }
            links.append(Link(url: resolved, type: kind, title: FeedText.collapsed(attributes.value("title") ?? "")))
        }
        html.withUnsafeBufferPointer { stream.feed($0) }
        stream.finish()
        return links
    }
}
