import FoundationEssentials
import CoreKit

/// JSON Feed 1.0 and 1.1 (jsonfeed.org) read into a `Feed`: `content_html` before
/// `content_text` before `summary`; 1.1's `authors` and 1.0's `author`; ids that are numbers,
/// as some feeds write them, taken as their text.
enum JSONFeedParser {
    struct Document: Decodable {
        var version: String?
        var title: String?
        var home_page_url: String?
        var author: Author?
        var authors: [Author]?
        var items: [Lenient<Item>]?
    }

    struct Author: Decodable {
        var name: String?
    }

    struct Item: Decodable {
        var id: String?
        var url: String?
        var external_url: String?
        var title: String?
        var content_html: String?
        var content_text: String?
        var summary: String?
        var date_published: String?
        var date_modified: String?
        var author: Author?
        var authors: [Author]?

        enum CodingKeys: String, CodingKey {
            case id, url, external_url, title, content_html, content_text, summary, date_published, date_modified, author, authors
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            if let text = try? container.decodeIfPresent(String.self, forKey: .id) {
                id = text
            } else if let number = try? container.decodeIfPresent(Int64.self, forKey: .id) {
                id = String(number)
            }
            url = try? container.decodeIfPresent(String.self, forKey: .url)
            external_url = try? container.decodeIfPresent(String.self, forKey: .external_url)
            title = try? container.decodeIfPresent(String.self, forKey: .title)
            content_html = try? container.decodeIfPresent(String.self, forKey: .content_html)
            content_text = try? container.decodeIfPresent(String.self, forKey: .content_text)
            summary = try? container.decodeIfPresent(String.self, forKey: .summary)
            date_published = try? container.decodeIfPresent(String.self, forKey: .date_published)
            date_modified = try? container.decodeIfPresent(String.self, forKey: .date_modified)
            author = try? container.decodeIfPresent(Author.self, forKey: .author)
            authors = try? container.decodeIfPresent([Author].self, forKey: .authors)
        }
    }

    /// An item that does not decode is left out, not the whole feed.
    struct Lenient<T: Decodable>: Decodable {
        var value: T?
        init(from decoder: any Decoder) throws { value = try? T(from: decoder) }
    }

    static func parse(_ data: Data, url: String, sink: FeedEntrySink? = nil) throws(ToolError) -> Feed {
        let document: Document
        do { document = try JSONCoding.decode(Document.self, from: data) } catch {
            throw .protocolViolation(url: url, detail: "not a JSON Feed: " + error.description)
        }
        guard let version = document.version, version.hasPrefix("https://jsonfeed.org/version/") else {
            throw .protocolViolation(url: url, detail: "not a JSON Feed: no jsonfeed.org version")
        }
        let feedAuthor = (document.authors?.first ?? document.author)?.name
        var collected = EntryCollector(sink: sink)
        for item in (document.items ?? []).compactMap(\.value) {
            let link = item.url.flatMap { resolve($0, url) } ?? item.external_url.flatMap { resolve($0, url) }
            let title = FeedText.collapsed(item.title ?? "")
            let body = item.content_html ?? item.content_text.map(FeedText.html(fromPlain:)) ?? item.summary.map(FeedText.html(fromPlain:)) ?? ""
            var summary = item.summary.map(FeedText.collapsed) ?? ""
            if item.summary == nil { summary = try FeedText.plain(fromHTML: body) }
            let id = FeedText.collapsed(item.id ?? "")
            let entry = FeedEntry(
                id: FeedEntry.acceptedID(!id.isEmpty ? id : link ?? FeedEntry.hashedID(title + "\u{0}" + (item.date_published ?? ""))),
                title: title, link: link,
                author: ((item.authors?.first ?? item.author)?.name ?? feedAuthor).map(FeedText.collapsed).flatMap { $0.isEmpty ? nil : $0 },
                published: item.date_published.flatMap(FeedDate.parse), updated: item.date_modified.flatMap(FeedDate.parse),
                summary: summary, body: body, base: link ?? url)
            try collected.add(entry)
        }
        return Feed(format: version.hasSuffix("/1") ? .jsonFeed10 : .jsonFeed11, title: FeedText.collapsed(document.title ?? ""),
                    link: document.home_page_url.flatMap { resolve($0, url) }, entries: collected.entries,
                    problems: 0, firstProblem: nil, duplicates: collected.duplicates)
    }

    static func resolve(_ reference: String, _ base: String) -> String? {
        (URLReference(base)?.resolving(reference) ?? URLReference(reference))?.absolute
    }
}
