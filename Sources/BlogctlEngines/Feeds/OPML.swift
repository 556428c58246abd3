import FoundationEssentials
import CoreKit

/// One subscription as OPML carries it: the feed's URL, its name, and the folders it sits in
/// (as tags, outermost first), as newsboat imports them.
public struct Subscription: Sendable, Equatable {
    public var url: String
    public var title: String
    public var tags: [String]
    /// The feed's site, as an OPML outline's `htmlUrl` gives it (absolute, http or https);
    /// the urls file has no place for it: an import keeps it in the library.
    public var site: String?

    public init(url: String, title: String, tags: [String] = [], site: String? = nil) {
        self.url = url
        self.title = title
        self.tags = tags
        self.site = site
    }

    /// Whether it has `tag`, or a tag inside it (`Tech` takes `Tech/Dev Video`), by bytes.
    public func has(tag: String) -> Bool {
        tags.contains { $0.utf8.elementsEqual(tag.utf8) || $0.utf8.starts(with: (tag + "/").utf8) }
    }
}

/// OPML 1.0 and 2.0 subscription lists, read through the same XML stream as feeds (no DTD, no
/// entity, no network) and written as OPML 2.0.
public enum OPML {
    /// What a list holds: its subscriptions in document order (a URL listed twice kept once)
    /// and how many outlines were left out (no feed URL, or one that is not http(s)).
    public struct List: Sendable, Equatable {
        public var subscriptions: [Subscription]
        public var skipped: Int

        package init(subscriptions: [Subscription], skipped: Int) {
            self.subscriptions = subscriptions
            self.skipped = skipped
        }
    }

    /// The subscriptions in `data`; relative URLs are read against `url` (the list's own, when
    /// it was fetched; a file's have no base and are skipped).
    public static func read(_ data: Data, url: String = "") throws(ToolError) -> List {
        var list = List(subscriptions: [], skipped: 0)
        var seen: Set<String> = []
        var folders: [String?] = []
        var root: String?
        var hasBody = false
        let stream = try FeedXMLStream(url: url, encoding: nil) { node in
            switch node {
            case .start(let element):
                if root == nil { root = element.name }
                if element.name == "body" { hasBody = true }
                guard element.name == "outline" else { return true }
                // `text` is an outline's name in OPML 2.0 and in newsboat; `title` where it has none.
                let title = FeedText.collapsed(Self.nonEmpty(element.attribute("text")) ?? element.attribute("title") ?? "")
                // xmlUrl as the specification spells it, and as exporters misspell it; `url` as
                // some exporters name a feed's (but not a link's or an include's, OPML 2.0's
                // other outlines with a `url`).
                let attribute = { (name: String) in element.attributes.first { $0.namespace.isEmpty && $0.name.lowercased() == name }?.value }
                let kind = element.attribute("type")?.lowercased()
                let feed = attribute("xmlurl") ?? (kind == "link" || kind == "include" ? nil : attribute("url"))
                guard let feed else {
                    folders.append(title.isEmpty ? nil : title)
                    return true
                }
                folders.append(nil)
                let reference = FeedText.collapsed(feed)
                guard var resolved = (URLReference(url)?.resolving(reference) ?? URLReference(reference))?.absolute else {
                    list.skipped += 1
                    return true
                }
                // A feed behind a password is the user's to keep: resolving leaves the user
                // and password out, and they are put back as they were written.
                if let credentials = credentials(in: reference), let schemeEnd = resolved.schemeEnd {
                    resolved = String(resolved[..<schemeEnd]) + credentials + "@" + String(resolved[schemeEnd...])
                }
                if seen.insert(resolved).inserted {
                    // A name that is only the URL again (what `write` gives a feed it knows no name of) is none.
                    let named = title == reference || title == resolved ? "" : title
                    // Its folder's path, as newsboat names a nested folder: `Tech/Dev Video`.
                    let path = folders.dropLast().compactMap { $0 }.joined(separator: "/")
                    let site = attribute("htmlurl").flatMap { (URLReference(url)?.resolving(FeedText.collapsed($0)) ?? URLReference(FeedText.collapsed($0)))?.absolute }
                    list.subscriptions.append(Subscription(url: resolved, title: named, tags: path.isEmpty ? [] : [path],
                                                               site: site))
                }
            case .end(let name):
                if String(cString: name) == "outline" { _ = folders.popLast() }
            case .text:
                break
            }
            return true
        }
        data.withUnsafeBytes { stream.feed($0) }
        stream.finish()
        guard root == "opml" else {
            throw .protocolViolation(url: url.isEmpty ? "the OPML file" : url,
                                     detail: root.map { "not OPML: its root element is <\(Terminal.sanitizeField($0))>" } ?? "not OPML: no XML")
        }
        // OPML requires a body; without one the file is cut short or not a list at all, not
        // an empty list to import in silence.
        guard hasBody else { throw .protocolViolation(url: url.isEmpty ? "the OPML file" : url, detail: "not OPML: no <body>") }
        return list
    }

    private static func nonEmpty(_ value: String?) -> String? {
        value.flatMap { FeedText.collapsed($0).isEmpty ? nil : $0 }
    }

    /// OPML 2.0: the subscriptions with no tag at the top, then one folder for each first tag,
    /// in the order the tags first appear; a tag that is a path (`Tech/Dev Video`, as an
    /// import names a nested folder) is written as folders inside folders, so that an import
    /// then an export gives the nesting back.
    /// Each outline's `text` and `title` are `name` (by default the urls file's title), else
    /// the URL: OPML 2.0 requires a text, and readers show it.
    /// Every value is written as XML 1.0 allows (`FeedText.xmlEscaped`: what is not an XML
    /// character, ESC and BEL among them, is left out), so the document is well-formed and
    /// nothing in it reaches a terminal as a control; a URL's user and password are left out
    /// (`withoutCredentials`), as `feeds` hides them: the urls file keeps them.
    public static func write(_ subscriptions: [Subscription], title: String = "blogctl subscriptions",
                             name: (Subscription) -> String = { $0.title },
                             site: (Subscription) -> String? = { $0.site }) -> String {
        func outline(_ subscription: Subscription, indent: String) -> String {
            let url = withoutCredentials(subscription.url)
            let named = withoutCredentials(name(subscription))
            let text = FeedText.xmlEscaped(named.isEmpty ? url : named)
            // A site that is not an absolute http(s) URL is left out; one is written without
            // user or password (`absolute`).
            let htmlURL = site(subscription).flatMap { URLReference($0)?.absolute }.map { " htmlUrl=\"" + FeedText.xmlEscaped($0) + "\"" } ?? ""
            return indent + "<outline type=\"rss\" text=\"" + text + "\" title=\"" + text
                + "\" xmlUrl=\"" + FeedText.xmlEscaped(url) + "\"" + htmlURL + "/>\n"
        }
        var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<opml version=\"2.0\">\n  <head>\n    <title>"
            + FeedText.xmlEscaped(title) + "</title>\n  </head>\n  <body>\n"
        for subscription in subscriptions where subscription.tags.isEmpty { text += outline(subscription, indent: "    ") }
        // The folders as a tree of paths, each in the order it first appears: a feed's
        // folder and its children found by lookup, not by scanning every feed for each.
        var feedsIn: [[String]: [Subscription]] = [:]
        var children: [[String]: [[String]]] = [[]: []]
        for subscription in subscriptions {
            guard let tag = subscription.tags.first else { continue }
            let folder = tag.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
            guard !folder.isEmpty else { continue }
            feedsIn[folder, default: []].append(subscription)
            for depth in 1...folder.count {
                let path = Array(folder.prefix(depth))
                if children[path] == nil {
                    children[path] = []
                    children[Array(path.dropLast()), default: []].append(path)
                }
            }
        }
        func folder(_ path: [String], indent: String) -> String {
            var text = indent + "<outline text=\"" + FeedText.xmlEscaped(path.last ?? "") + "\">\n"
            for subscription in feedsIn[path] ?? [] { text += outline(subscription, indent: indent + "  ") }
            for child in children[path] ?? [] { text += folder(child, indent: indent + "  ") }
            return text + indent + "</outline>\n"
        }
        for path in children[[]] ?? [] { text += folder(path, indent: "    ") }
        return text + "  </body>\n</opml>\n"
    }

    /// `text` with the user and password of a URL in it left out (`http://u:p@h/` is
    /// `http://h/`); any other text as it is.
    public static func withoutCredentials(_ text: String) -> String {
        guard let start = text.schemeEnd, let at = credentialsEnd(text) else { return text }
        return String(text[..<start]) + String(text[text.utf8.index(after: at)...])
    }

    /// The user and password of the URL `text` (`u:p` of `http://u:p@h/`), or nil.
    static func credentials(in text: String) -> Substring? {
        guard let start = text.schemeEnd, let at = credentialsEnd(text) else { return nil }
        return text[start..<at]
    }

    /// Where the `@` after a URL's user and password is, or nil.
    private static func credentialsEnd(_ text: String) -> String.Index? {
        guard let start = text.schemeEnd else { return nil }
        let rest = text[start...]
        let authorityEnd = rest.utf8.firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? rest.endIndex
        return rest[..<authorityEnd].utf8.lastIndex(of: UInt8(ascii: "@"))
    }

    /// Whether a URL holds a user or password (`feeds export` leaves them out, and says so).
    public static func hasCredentials(_ url: String) -> Bool { withoutCredentials(url) != url }
}
