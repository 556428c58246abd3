import SQLiteKit
import ToolboxKit

/// Read marks: a row of `marks` per source and id read, compared byte by byte (SQLite's
/// BINARY collation): `é` and `e` + U+0301 are two ids.
extension Library {
    /// The ids of `server` marked read.
    public func readIDs(_ server: ServerURL) throws(ToolError) -> ReadMarks.IDs {
        try adopt([server])
        return try read { db in
            var ids: [String] = []
            try db.each("SELECT m.id FROM marks m JOIN sources s ON s.id = m.source WHERE s.key = ?", [.text(server.folderName)]) { row in
                ids.append(row.values[0].string ?? "")
            }
            return ReadMarks.IDs(ids)
        }
    }

    /// Marks `ids` of `server` read (or unread) in one transaction; how many changed.
    public func mark(_ ids: [String], read: Bool, server: ServerURL) throws(ToolError) -> Int {
        try write { db in
            let source = try sourceID(server, db)
            let before = db.totalChanges()
            let change = read ? "INSERT OR IGNORE INTO marks (source, id) VALUES (?, ?)" : "DELETE FROM marks WHERE source = ? AND id = ?"
            for id in ids { try db.execute(change, [.integer(source), .text(id)]) }
            return db.totalChanges() - before
        }
    }
}
