import SQLiteKit
import ToolboxKit

/// The library's tables, and how a file is recognised as a library this blogctl may change.
enum LibrarySchema {
    /// Marks a blogctl library in the SQLite header, so another program's database is refused.
    static let applicationID: Int32 = 0x424C_4F47  // "BLOG"

    /// Schema changes in order, each applied once; never edit one that shipped, add another.
    static let migrations = SQLiteMigrations([
        ("v1", [
            "PRAGMA application_id = \(applicationID)",
            // `key` is `ServerURL.folderName`: one source per server, credentials and query
            // included. `url` is the server's URL with any password hidden. `generation`
            // counts saved listings, so a copy made from them (the search index) knows it is behind.
            """
            CREATE TABLE sources (
                id INTEGER PRIMARY KEY,
                key TEXT NOT NULL UNIQUE,
                url TEXT NOT NULL,
                kind TEXT NOT NULL DEFAULT '' CHECK (kind IN ('', 'api', 'feed')),
                title TEXT,
                feed_url TEXT,
                etag TEXT,
                last_modified TEXT,
                listed_at REAL,
                generation INTEGER NOT NULL DEFAULT 0,
                last_error TEXT,
                gone INTEGER NOT NULL DEFAULT 0
            )
            """,
            // `present`: in the source's last listing; an entry that left it stays, 0.
            // `position`: its place in the listing that last had it. `flags`: newsboat's
            // letters (a user's own marks, `s` for starred), kept as it keeps them.
            """
            CREATE TABLE entries (
                source INTEGER NOT NULL REFERENCES sources (id),
                id TEXT NOT NULL,
                post_id TEXT NOT NULL,
                title TEXT NOT NULL,
                published REAL,
                summary TEXT NOT NULL,
                author TEXT NOT NULL,
                author_image TEXT NOT NULL,
                author_title TEXT NOT NULL,
                link TEXT,
                base TEXT,
                position INTEGER NOT NULL,
                present INTEGER NOT NULL DEFAULT 1,
                first_seen REAL NOT NULL,
                flags TEXT NOT NULL DEFAULT '',
                PRIMARY KEY (source, id)
            )
            """,
            "CREATE INDEX entries_by_id ON entries (id)",
            // Marks by id, not by entry: a post can be read (`read ID`) before any list has it.
            // The sources whose old-layout files (blogctl before the library) were taken in:
            // each once, so that a source removed and subscribed again starts empty.
            "CREATE TABLE old_layout_taken (key TEXT PRIMARY KEY NOT NULL) WITHOUT ROWID",
            // What the library remembers for blogctl itself (what was last said, and of what).
            "CREATE TABLE meta (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL) WITHOUT ROWID",
            "CREATE TABLE marks (source INTEGER NOT NULL REFERENCES sources (id), id TEXT NOT NULL, PRIMARY KEY (source, id)) WITHOUT ROWID",
        ]),
        // A source's entries in the order its listing is read (`Library.listing`): read along
        // the index, where sorting 100,000 rows was half of `ui`'s start.
        ("v2", ["CREATE INDEX entries_in_order ON entries (source, present DESC, position)"]),
        // A feed entry's files (`Enclosure`s as a JSON array) and picture; NULL when none.
        // The download queue (`blogctl download`), as podboat's queue file: a file is queued
        // with the path it goes to, and stays until it is whole there (`done`), so a quit or
        // a crash leaves it to be resumed.
        ("v3", ["ALTER TABLE entries ADD COLUMN enclosures TEXT", "ALTER TABLE entries ADD COLUMN picture TEXT",
                """
                CREATE TABLE downloads (
                    url TEXT PRIMARY KEY NOT NULL,
                    path TEXT NOT NULL UNIQUE,
                    entry TEXT NOT NULL,
                    title TEXT NOT NULL,
                    queued REAL NOT NULL,
                    done REAL,
                    error TEXT
                ) WITHOUT ROWID
                """]),
        // A feed's site (its own `<link>`, or an imported OPML's `htmlUrl`): `feeds export`
        // writes it back as `htmlUrl`.
        ("v4", ["ALTER TABLE sources ADD COLUMN site_url TEXT"]),
    ])

    /// Refuses a file that is another program's database, or a newer blogctl's.
    static func check(_ db: SQLiteStatements, path: String) throws {
        let id = try db.value("PRAGMA application_id")?.integer ?? 0
        let tables = try db.value("SELECT count(*) FROM sqlite_master WHERE type = 'table'")?.integer ?? 0
        if (id == 0 && tables > 0) || (id != 0 && id != Int(applicationID)) {
            throw ToolError.io(path: path, reason: "not a blogctl library (another program's SQLite database); refusing to change it")
        }
        let unknown = try migrations.unknown(in: db)
        if !unknown.isEmpty {
            throw ToolError.io(path: path, reason: "written by a newer blogctl (schema \(unknown.joined(separator: ", "))); refusing to change it")
        }
    }
}
