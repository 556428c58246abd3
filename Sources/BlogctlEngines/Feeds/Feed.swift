import FoundationEssentials
import CoreKit

/// The formats blogctl reads, named as their specifications name them.
public enum FeedFormat: String, Sendable, Equatable {
    case rss090 = "RSS 0.90"
    case rss09x = "RSS 0.9x"
    case rss10 = "RSS 1.0"
    case rss20 = "RSS 2.0"
    case atom03 = "Atom 0.3"
    case atom10 = "Atom 1.0"
    case jsonFeed10 = "JSON Feed 1.0"
    case jsonFeed11 = "JSON Feed 1.1"
}

/// One entry of a feed, in the terms of the blog API's posts: plain-text title, author and
/// summary; an HTML body; absolute links. Every string is sanitised when it is shown, as the
/// API's are.
public struct FeedEntry: Sendable, Equatable {
    /// The entry's guid or id; else its link; else a hash of its title and date, so that the
    /// same entry keeps its id from one refresh to the next.
    public var id: String
    public var title: String
    /// The entry's page (its alternate link), absolute, http or https only.
    public var link: String?
    public var author: String?
    public var published: Date?
    public var updated: Date?
    /// Plain text.
    public var summary: String
    /// HTML: the entry's content, else its summary.
    public var body: String
    /// The URL the body's relative links are read against (`xml:base`, then the feed's URL).
    public var base: String
    /// The files it carries (a podcast's episode), absolute, http or https.
    public var enclosures: [Enclosure] = []
    /// Its picture (Media RSS's thumbnail, iTunes's image, JSON Feed's `image`), absolute.
    public var picture: String?

    /// The date the entry is listed under: published, else updated; nil when the feed gives
    /// none that can be read.
    public var date: Date? { published ?? updated }
}

/// A feed as read: its format, title, page, entries in document order (none, when they went
/// to a `FeedEntrySink`) and what libxml2 had to recover from.
public struct Feed: Sendable, Equatable {
    public var format: FeedFormat
    public var title: String
    public var link: String?
    public var entries: [FeedEntry]
    /// Errors recovered from (ill-formed XML), and the first one's words.
    public var problems: Int
    public var firstProblem: String?
    /// Entries kept under an id of their own (`EntryCollector`) because an earlier one had theirs.
    public var renamed: Int
}

/// Where a feed's entries go one at a time, in document order, when they are not to be held
/// together: a big feed is written into the library as it is read. Called from one thread at
/// a time (the parse's own, or the queue that makes its entries), never two at once.
package protocol FeedEntrySink: AnyObject {
    /// Takes `entry`; false when an entry with its id came before it (the entry is then
    /// offered again under an id of its own).
    func take(_ entry: FeedEntry) throws(ToolError) -> Bool
}

/// The ids the parsers give entries, one rule for RSS, Atom and JSON Feed.
extension FeedEntry {
    /// A stable id for an entry with no id and no link: FNV-1a over its title and date.
    static func hashedID(_ text: String) -> String {
        "h" + FNV1a.hash(text.utf8).hex
    }

    /// `id` when the one id rule of the toolbox takes it (`ResourceID.problem`: not empty, no
    /// NUL, at most 4096 bytes), else a hash of it: an entry whose id holds a NUL is kept, and
    /// can be read, under an id every command can name.
    static func acceptedID(_ id: String) -> String {
        ResourceID.problem(id) == nil ? id : hashedID(id)
    }
}
