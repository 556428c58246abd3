import FoundationEssentials
import SQLiteKit
import ToolboxKit

/// A source's listing being written into the library (`Library.writeListing`): each post
/// after those before it, inside that one transaction.
public final class ListingWriter {
    private let db: SQLiteStatements
    private let source: Int
    private let now: Date
    private let path: String
    /// The posts taken so far: the next one's position.
    public private(set) var count = 0

    init(_ db: SQLiteStatements, source: Int, now: Date, path: String) {
        self.db = db
        self.source = source
        self.now = now
        self.path = path
    }

    /// Adds `post` after those before it; false, and nothing changed, when a post with its
    /// id came before it in this listing (the first is kept, as the parsers keep it).
    public func add(_ post: PostMetadata) throws(ToolError) -> Bool {
        do {
            try db.execute(Self.insert, EntryRow.values(source: source, post, position: count, now: now))
        } catch {
            throw Library.failure(error, path: path)
        }
        guard db.changes() > 0 else { return false }
        count += 1
        return true
    }

    /// One statement, compiled once for every row (the connection keeps it). A row of an
    /// earlier listing (`present = 0`) takes the new values; one of this listing is a repeat.
    static let insert = """
        INSERT INTO entries (\(EntryRow.inserted)) VALUES (\(EntryRow.placeholders))
        ON CONFLICT (source, id) DO UPDATE SET post_id = excluded.post_id, title = excluded.title,
            published = excluded.published, summary = excluded.summary, author = excluded.author,
            author_image = excluded.author_image, author_title = excluded.author_title, link = excluded.link,
            base = excluded.base, position = excluded.position, enclosures = excluded.enclosures, picture = excluded.picture, present = 1
        WHERE entries.present = 0
        """
}
