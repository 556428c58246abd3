import FoundationEssentials
import ToolboxKit

/// The blog's posts as the web serves a blog: an RSS 2.0, an Atom 1.0 and a JSON Feed 1.1 of
/// the same posts (newest first, bodies as HTML), and a page that links to the three (for
/// autodiscovery); and, for load, `count` generated RSS feeds (`/feeds/N.xml`, each with
/// `items` seeded entries) listed in `/feeds.opml`. Every document carries an ETag and a
/// Last-Modified, for conditional GET.
struct BlogFeeds: Sendable {
    struct Document: Sendable {
        let tagged: BlogAPI.Tagged
        let contentType: String
        let lastModified: String
        /// The same bytes gzipped, for a reader that accepts gzip (as web servers send feeds).
        let gzipped: [UInt8]

        init(tagged: BlogAPI.Tagged, contentType: String, lastModified: String) {
            self.tagged = tagged
            self.contentType = contentType
            self.lastModified = lastModified
            gzipped = Gzip.compress(tagged.bytes)
        }
    }

    struct Entry {
        let id: String
        let title: String
        let author: String
        let published: Date
        let summary: String
        let body: String
    }

    // Each feed is written on its first request, not at start-up: a blog's bodies may be
    // hundreds of MB (the memory tests serve five of 50 MB), and mockd must be listening at
    // once, whatever its data, with no CPU spent on documents nobody asks for.
    let rss: Lazily<Document>
    let atom: Lazily<Document>
    let json: Lazily<Document>
    let page: Document
    let generated: [Lazily<Document>]
    let opml: Document

    init(entries: [Entry], generatedFeeds count: Int, itemsEach items: Int) {
        let entries = entries.sorted { $0.published > $1.published }
        let updated = entries.first?.published ?? Date(timeIntervalSince1970: 0)
        rss = Lazily { Self.document(Self.rss(title: "Blog Nerd Ranch", link: "/blog", entries: entries), "application/rss+xml; charset=utf-8", updated) }
        atom = Lazily { Self.document(Self.atom(entries, updated: updated), "application/atom+xml; charset=utf-8", updated) }
        json = Lazily { Self.document(Self.json(entries), "application/feed+json; charset=utf-8", updated) }
        page = Self.document(Self.page(), "text/html; charset=utf-8", updated)
        generated = (0..<max(0, count)).map { feed in
            Lazily { Self.generatedFeed(feed, items: items, updated: updated) }
        }
        var outlines = ""
        for feed in 0..<max(0, count) {
            outlines += "    <outline type=\"rss\" text=\"Generated feed \(feed + 1)\" xmlUrl=\"/feeds/\(feed + 1).xml\"/>\n"
        }
        opml = Self.document("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<opml version=\"2.0\">\n  <head><title>mockd's feeds</title></head>\n"
            + "  <body>\n" + outlines + "  </body>\n</opml>\n", "text/x-opml; charset=utf-8", updated)
    }

    /// Generated feed number `feed + 1`: `items` seeded entries, an hour apart.
    static func generatedFeed(_ feed: Int, items: Int, updated: Date) -> Document {
        var generator = SeededGenerator(seed: UInt64(feed) &+ 0xFEED)
        let feedEntries = (0..<max(0, items)).map { item in
            let number = feed * items + item
            let words = (0..<8).map { _ in BlogAPI.vocabulary[Int(generator.next() % UInt64(BlogAPI.vocabulary.count))] }
            return Entry(id: "feed-\(feed + 1)-item-\(item + 1)", title: words.prefix(5).map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined(separator: " "),
                         author: "Author \(feed % 17 + 1)", published: Date(timeIntervalSince1970: Double(1_767_225_600 + number * 3_600)),
                         summary: words.joined(separator: " ") + ".", body: "<p>" + words.joined(separator: " ") + ".</p>")
        }
        let newest = feedEntries.last?.published ?? updated
        return document(rss(title: "Generated feed \(feed + 1)", link: "/feeds/\(feed + 1)", entries: feedEntries.reversed()),
                        "application/rss+xml; charset=utf-8", newest)
    }

    static func document(_ text: String, _ contentType: String, _ modified: Date) -> Document {
        let time = FeedDate.rfc822(modified)
        return Document(tagged: BlogAPI.Tagged(Array(text.utf8)), contentType: contentType, lastModified: time)
    }

    /// `&`, `<`, `>` and `"` as entities: for XML text and attributes alike.
    static func escaped(_ text: String) -> String {
        text.escapingScalars(["&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;"])
    }

    /// Links are relative to the feed's own URL (mockd does not know the address it is reached
    /// by): readers resolve them, as they must for any feed.
    static func rss(title: String, link: String, entries: [Entry]) -> String {
        var text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/">
            <channel>
            <title>\(escaped(title))</title>
            <link>\(escaped(link))</link>
            <description>The posts of \(escaped(title))</description>

            """
        for entry in entries {
            text += """
                <item>
                <title>\(escaped(entry.title))</title>
                <link>/blog/\(escaped(entry.id))</link>
                <guid isPermaLink="false">\(escaped(entry.id))</guid>
                <dc:creator>\(escaped(entry.author))</dc:creator>
                <pubDate>\(FeedDate.rfc822(entry.published))</pubDate>
                <description>\(escaped(entry.summary))</description>
                <content:encoded>\(escaped(entry.body))</content:encoded>
                </item>

                """
        }
        return text + "</channel>\n</rss>\n"
    }

    static func atom(_ entries: [Entry], updated: Date) -> String {
        var text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <feed xmlns="http://www.w3.org/2005/Atom">
            <title>Blog Nerd Ranch</title>
            <id>urn:mockd:blog</id>
            <updated>\(ISO8601.format(updated))</updated>
            <link rel="alternate" type="text/html" href="/blog"/>
            <link rel="self" href="/feed.atom"/>

            """
        for entry in entries {
            text += """
                <entry>
                <id>\(escaped(entry.id))</id>
                <title type="text">\(escaped(entry.title))</title>
                <link rel="alternate" type="text/html" href="/blog/\(escaped(entry.id))"/>
                <published>\(ISO8601.format(entry.published))</published>
                <updated>\(ISO8601.format(entry.published))</updated>
                <author><name>\(escaped(entry.author))</name></author>
                <summary type="text">\(escaped(entry.summary))</summary>
                <content type="html">\(escaped(entry.body))</content>
                </entry>

                """
        }
        return text + "</feed>\n"
    }

    static func json(_ entries: [Entry]) -> String {
        struct Author: Encodable { let name: String }
        struct Item: Encodable {
            let id: String, url: String, title: String, content_html: String, summary: String, date_published: String
            let authors: [Author]
        }
        struct Feed: Encodable {
            let version = "https://jsonfeed.org/version/1.1"
            let title = "Blog Nerd Ranch"
            let home_page_url = "/blog"
            let feed_url = "/feed.json"
            let items: [Item]
        }
        let items = entries.map {
            Item(id: $0.id, url: "/blog/" + $0.id, title: $0.title, content_html: $0.body, summary: $0.summary,
                 date_published: ISO8601.format($0.published), authors: [Author(name: $0.author)])
        }
        return String(decoding: JSONCoding.encode(Feed(items: items)), as: UTF8.self)
    }

    /// The blog's home page: what a reader given the site's address finds its feeds from.
    static func page() -> String {
        """
        <!DOCTYPE html>
        <html><head><title>Blog Nerd Ranch</title>
        <link rel="alternate" type="application/rss+xml" title="RSS" href="/feed.rss">
        <link rel="alternate" type="application/atom+xml" title="Atom" href="/feed.atom">
        <link rel="alternate" type="application/feed+json" title="JSON Feed" href="/feed.json">
        </head><body><h1>Blog Nerd Ranch</h1><p>The posts are in the feeds.</p></body></html>

        """
    }
}
