import FoundationEssentials
import SQLiteKit

/// A source's own row of the library: what it is (the API, a feed), what a feed said of itself
/// (title, validators for the next conditional GET) and how its last refresh went.
public struct SourceRecord: Sendable, Equatable {
    public enum Kind: String, Sendable { case unknown = "", api, feed }
    public var kind: Kind = .unknown
    public var title: String?
    /// A feed's own URL: the server's, or the one its page named.
    public var feedURL: String?
    /// The feed's site: its own link, else an imported OPML's `htmlUrl`.
    public var siteURL: String?
    public var etag: String?
    public var lastModified: String?
    /// When the source last gave a list.
    public var listedAt: Date?
    public var generation = 0
    public var lastError: String?
    /// Answered 410 Gone: no longer asked.
    public var gone = false

    public init() {}

    /// The columns `init(_:from:)` reads, of `sources` named `s`.
    static let columns = "s.kind, s.title, s.feed_url, s.etag, s.last_modified, s.listed_at, s.generation, s.last_error, s.gone, s.site_url"

    /// The record in `row`, its `columns` from `offset` on.
    init(_ row: SQLRow, from offset: Int = 0) {
        let values = row.values
        kind = Kind(rawValue: values[offset].string ?? "") ?? .unknown
        title = values[offset + 1].string
        feedURL = values[offset + 2].string
        etag = values[offset + 3].string
        lastModified = values[offset + 4].string
        listedAt = Self.date(values[offset + 5])
        generation = values[offset + 6].integer ?? 0
        lastError = values[offset + 7].string
        gone = values[offset + 8].integer == 1
        siteURL = values[offset + 9].string
    }

    /// Seconds since 1970, as the library keeps every date.
    static func date(_ value: SQLValue) -> Date? {
        switch value {
        case .real(let seconds): return Date(timeIntervalSince1970: seconds)
        case .integer(let seconds): return Date(timeIntervalSince1970: Double(seconds))
        default: return nil
        }
    }

    /// Writes the record over the row `id` (an error kept to its first 4,096 scalars).
    func store(id: Int, _ db: SQLiteStatements) throws {
        try db.execute("""
            UPDATE sources SET kind = ?, title = ?, feed_url = ?, etag = ?, last_modified = ?, listed_at = ?,
                generation = ?, last_error = ?, gone = ?, site_url = ? WHERE id = ?
            """, [.text(kind.rawValue), .optional(title), .optional(feedURL), .optional(etag),
                  .optional(lastModified), listedAt.map { .real($0.timeIntervalSince1970) } ?? .null,
                  .integer(generation), .optional(lastError.map { String(String.UnicodeScalarView($0.unicodeScalars.prefix(4096))) }),
                  .integer(gone ? 1 : 0), .optional(siteURL), .integer(id)])
    }
}
