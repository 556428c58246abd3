import FoundationEssentials
import CoreKit

/// JSON Feed 1.0 and 1.1 (jsonfeed.org) read into a `Feed`: `content_html` before
/// `content_text` before `summary`; 1.1's `authors` and 1.0's `author`; ids that are numbers,
/// as some feeds write them, taken as their text.
package enum JSONFeedParser {
    /// A JSON Feed read as it arrives, in two passes over its bytes: the first reads the
    /// feed's own fields (its author, which an item without one takes, may follow the items),
    /// the second the items, each made an entry as its object closes and handed on. Neither
    /// pass holds more than the string being read, so a feed of a million items costs what one
    /// item costs.
    package final class Reading: JSONStreamReader {
        package enum Pass { case feed, items }

        let url: String
        private(set) var pass = Pass.feed
        private var stream = JSONStream()
        private var collected: EntryCollector
        private var failure: ToolError?
        /// Each open object or array: the key its current value is under, and its place.
        private var path: [Frame] = []
        /// Where the scalar being read goes.
        private var target: Field?
        private var isObject = false
        private var version: String?
        private var title: String?
        private var homePage: String?
        private var feedAuthors = Authors()
        private var item = Item()
        /// Whether the attachment being read is kept (the item has fewer than the cap).
        private var keepsAttachment = false

        private struct Frame {
            var object: Bool
            var key = Key.other
            /// The place of this container in its parent array, or of its value in its object.
            var place: Int
            /// How many values this container has held.
            var count = 0
        }

        private enum Key: String {
            case version, title, home_page_url, author, authors, items, name
            case id, url, external_url, content_html, content_text, summary, date_published, date_modified, image
            case attachments, mime_type, size_in_bytes, duration_in_seconds
            case other
        }

        private enum Field {
            case version, title, homePage, feedAuthor, feedAuthorsFirst
            case item(Key), itemAuthor, itemAuthorsFirst
            /// A field of the item's attachment being read.
            case attachment(Key)
        }

        /// 1.1's `authors` (its first) before 1.0's `author`: each nil when absent, `.some(nil)`
        /// when there without a name.
        private struct Authors {
            var first: String??
            var single: String??
            var name: String? { (first ?? single) ?? nil }
        }

        private struct Item {
            var fields: [Key: String] = [:]
            var id: String?
            var authors = Authors()
            /// Its attachments so far (url, mime_type, size_in_bytes, duration_in_seconds),
            /// up to `Enclosure.mostPerEntry`.
            var attachments: [[Key: String]] = []
        }

        init(url: String, sink: FeedEntrySink?) {
            self.url = url
            collected = EntryCollector(sink: sink)
        }

        func add(_ piece: UnsafeBufferPointer<UInt8>) throws(ToolError) {
            do { try stream.add(piece, to: self) } catch { throw notAFeed(error) }
            if let failure { throw failure }
        }

        /// Ends the first pass: the document was JSON and a JSON Feed. The next bytes are the
        /// document again, from its start, for the items.
        func startItems() throws(ToolError) {
            do { try stream.finish(self) } catch { throw notAFeed(error) }
            guard isObject, let version, version.utf8.starts(with: "https://jsonfeed.org/version/".utf8) else {
                throw .protocolViolation(url: url, detail: "not a JSON Feed: no jsonfeed.org version")
            }
            pass = .items
            stream = JSONStream()
            path = []
        }

        func finish() throws(ToolError) -> Feed {
            do { try stream.finish(self) } catch { throw notAFeed(error) }
            if let failure { throw failure }
            return Feed(format: version.map { $0.utf8.elementsEqual("https://jsonfeed.org/version/1".utf8) } == true ? .jsonFeed10 : .jsonFeed11, title: FeedText.collapsed(title ?? ""),
                        link: homePage.flatMap { resolve($0, url) }, entries: collected.entries,
                        problems: 0, firstProblem: nil, renamed: collected.renamed)
        }

        private func notAFeed(_ error: ToolError) -> ToolError {
            guard case .badData(let detail) = error else { return error }
            return .protocolViolation(url: url, detail: "not a JSON Feed: " + detail)
        }

        // MARK: JSONStreamReader

        package func begin(object: Bool) {
            let place = valueStarts()
            if path.isEmpty { isObject = object }
            if let field = target {
                // A container where text was expected: the field is unset, as JSONDecoder's
                // `try?` leaves it; an author's object is where its name will be.
                switch field {
                case .feedAuthor where object: feedAuthors.single = .some(nil)
                case .feedAuthorsFirst where object: feedAuthors.first = .some(nil)
                case .itemAuthor where object: item.authors.single = .some(nil)
                case .itemAuthorsFirst where object: item.authors.first = .some(nil)
                default: set(field, nil)
                }
                target = nil
            }
            if pass == .items, object, path.count == 2, path[0].key == .items, !path[1].object { item = Item() }
            if pass == .items, object, isAttachment(at: path.count) {
                // Past the cap an attachment is read and left out: its fields go nowhere.
                keepsAttachment = item.attachments.count < Enclosure.mostPerEntry
                if keepsAttachment { item.attachments.append([:]) }
            }
            path.append(Frame(object: object, place: place))
        }

        package func end() {
            let closed = path.removeLast()
            if pass == .items, closed.object, path.count == 2, path[0].key == .items, !path[1].object, failure == nil {
                do throws(ToolError) { try collected.add(entry(item)) } catch { failure = error }
            }
        }

        package func key(_ key: [UInt8]?) {
            path[path.count - 1].key = key.flatMap { Key(rawValue: String(decoding: $0, as: UTF8.self)) } ?? .other
        }

        package func wantsScalar() -> Bool {
            _ = valueStarts()
            return target != nil
        }

        package func scalar(_ value: JSONStream.Scalar) {
            guard let field = target else { return }
            switch (field, value) {
            case (.item(.id), .number(let text)): item.id = Int64(text).map(String.init)
            case (.attachment, .number(let text)): set(field, text)
            case (_, .string(let text)): set(field, text)
            default: set(field, nil)
            }
        }

        package func skipped() { target = nil }

        /// Counts the value that starts here in its container and says where it goes
        /// (`target`); its place in an array.
        private func valueStarts() -> Int {
            target = nil
            guard let parent = path.last else { return 0 }
            let place = parent.count
            path[path.count - 1].count += 1
            let key = parent.key
            switch (pass, path.count) {
            case (.feed, 1):
                switch key {
                case .version: target = .version
                case .title: target = .title
                case .home_page_url: target = .homePage
                case .author: target = .feedAuthor
                case .authors: feedAuthors.first = nil
                default: break
                }
            case (.feed, 2) where path[0].key == .author && parent.object && key == .name:
                target = .feedAuthor
            case (.feed, 2) where path[0].key == .authors && !parent.object && place == 0:
                target = .feedAuthorsFirst
            case (.feed, 3) where path[0].key == .authors && path[2].place == 0 && parent.object && key == .name:
                target = .feedAuthorsFirst
            case (.items, 3) where path[0].key == .items && !path[1].object && parent.object:
                switch key {
                case .other, .version, .items, .name, .home_page_url, .attachments, .mime_type, .size_in_bytes, .duration_in_seconds: break
                case .author: target = .itemAuthor
                case .authors: item.authors.first = nil
                default: target = .item(key)
                }
            case (.items, 4) where path[2].key == .author && parent.object && key == .name && path[0].key == .items:
                target = .itemAuthor
            case (.items, 4) where path[2].key == .authors && !parent.object && place == 0 && path[0].key == .items:
                target = .itemAuthorsFirst
            case (.items, 5) where isAttachment(at: 4) && parent.object:
                switch key {
                case .url, .mime_type, .size_in_bytes, .duration_in_seconds: target = .attachment(key)
                default: break
                }
            case (.items, 5) where path[2].key == .authors && path[4].place == 0 && parent.object && key == .name && path[0].key == .items:
                target = .itemAuthorsFirst
            default: break
            }
            return place
        }

        /// Whether an object at depth `depth` of the path is one of an item's attachments:
        /// `{"items": [{"attachments": [{…}]}]}`.
        private func isAttachment(at depth: Int) -> Bool {
            depth == 4 && path.count >= 4 && path[0].key == .items && !path[1].object && path[2].key == .attachments && !path[3].object
        }

        private func set(_ field: Field, _ text: String?) {
            switch field {
            case .version: version = text
            case .title: title = text
            case .homePage: homePage = text
            // An author that is no object is none; one that is has the name found in it.
            case .feedAuthor: feedAuthors.single = path.count == 1 ? nil : .some(text)
            case .feedAuthorsFirst: feedAuthors.first = path.count == 2 ? nil : .some(text)
            case .item(.id): item.id = text
            case .attachment(let key):
                if keepsAttachment, isAttachment(at: 4), !item.attachments.isEmpty { item.attachments[item.attachments.count - 1][key] = text }
            case .item(let key): item.fields[key] = text
            case .itemAuthor: item.authors.single = path.count == 3 ? nil : .some(text)
            case .itemAuthorsFirst: item.authors.first = path.count == 4 ? nil : .some(text)
            }
        }

        private func entry(_ item: Item) throws(ToolError) -> FeedEntry {
            let fields = item.fields
            let link = fields[.url].flatMap { resolve($0, url) } ?? fields[.external_url].flatMap { resolve($0, url) }
            let title = FeedText.collapsed(fields[.title] ?? "")
            let plain = fields[.content_text] ?? fields[.summary]
            let body = fields[.content_html] ?? plain.map(FeedText.html(fromPlain:)) ?? ""
            var summary = fields[.summary].map(FeedText.collapsed) ?? ""
            if fields[.summary] == nil { summary = try FeedText.plain(fromHTML: body) }
            let id = FeedText.collapsed(item.id ?? "")
            return FeedEntry(
                id: FeedEntry.acceptedID(!id.isEmpty ? id : link ?? FeedEntry.hashedID(title + "\u{0}" + (fields[.date_published] ?? ""))),
                title: title, link: link,
                author: (item.authors.name ?? feedAuthors.name).map(FeedText.collapsed).flatMap { $0.isEmpty ? nil : $0 },
                published: fields[.date_published].flatMap(FeedDate.parse), updated: fields[.date_modified].flatMap(FeedDate.parse),
                summary: summary, body: body, base: link ?? url,
                enclosures: enclosures(item.attachments), picture: fields[.image].flatMap { webURL($0) })
        }

        /// The item's attachments, each URL once; sizes and durations that are numbers.
        private func enclosures(_ attachments: [[Key: String]]) -> [Enclosure] {
            var made: [Enclosure] = []
            for attachment in attachments {
                guard let url = attachment[.url].flatMap({ webURL($0) }), !made.contains(where: { $0.url == url }) else { continue }
                made.append(Enclosure(url: url, type: Enclosure.type(attachment[.mime_type]),
                                      length: Enclosure.length(attachment[.size_in_bytes]),
                                      duration: Enclosure.seconds(attachment[.duration_in_seconds])))
            }
            return made
        }

        /// `reference` read against the feed's URL: absolute http(s), or nil.
        private func webURL(_ reference: String) -> String? {
            resolve(FeedText.collapsed(reference), url)
        }
    }

    static func resolve(_ reference: String, _ base: String) -> String? {
        (URLReference(base)?.resolving(reference) ?? URLReference(reference))?.absolute
    }
}
