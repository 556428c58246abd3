import FoundationEssentials
import SQLiteKit
import ToolboxKit
import BlogctlEngines

/// A file queued for download (`blogctl download`): where it comes from, where it goes, and
/// the entry that carries it.
public struct QueuedDownload: Sendable, Equatable {
    public var url: String
    /// The file's path once whole; it grows beside, as `PATH.part`, until then.
    public var path: String
    public var entry: String
    public var title: String
    /// Why the last try failed, when it did.
    public var error: String?

    public init(url: String, path: String, entry: String, title: String, error: String? = nil) {
        self.url = url
        self.path = path
        self.entry = entry
        self.title = title
        self.error = error
    }

    /// Where the file grows until it is whole.
    public var partPath: String { path + ".part" }
}

/// The download queue, kept in the library (podboat's queue): files wait in it until they are
/// whole at their path, whatever ends the run that fetched them.
public struct DownloadQueue: Sendable {
    let library: Library

    /// Queues each file of `files` (url, entry id, title) into `folder`, unless it is queued
    /// already: a file keeps the path it was first given, and one done whose file is gone is
    /// queued again. A new file's name is `EnclosureName.name(for:)`, numbered (`x (2).mp3`)
    /// past any path taken by another download or by a file already in the folder.
    public func add(_ files: [(url: String, entry: String, title: String)], into folder: String,
                    now: Date = Date()) throws(ToolError) -> [QueuedDownload] {
        try library.write { db in
            var queued: [QueuedDownload] = []
            for file in files {
                if let row = try db.rows("SELECT path, entry, title, done FROM downloads WHERE url = ?", [.text(file.url)]).first {
                    let path = row.values[0].string ?? ""
                    if row.values[3] != .null, !EnclosureName.taken(path) {
                        try db.execute("UPDATE downloads SET done = NULL, error = NULL WHERE url = ?", [.text(file.url)])
                    } else if row.values[3] != .null {
                        continue
                    }
                    queued.append(QueuedDownload(url: file.url, path: path, entry: row.values[1].string ?? "", title: row.values[2].string ?? ""))
                    continue
                }
                let name = EnclosureName.name(for: file.url)
                var path = folder + "/" + name
                var number = 2
                while try db.value("SELECT 1 FROM downloads WHERE path = ?", [.text(path)]) != nil
                        || EnclosureName.taken(path) || EnclosureName.taken(path + ".part") {
                    path = folder + "/" + EnclosureName.numbered(name, number)
                    number += 1
                }
                try db.execute("INSERT INTO downloads (url, path, entry, title, queued) VALUES (?, ?, ?, ?, ?)",
                               [.text(file.url), .text(path), .text(file.entry), .text(file.title), .real(now.timeIntervalSince1970)])
                queued.append(QueuedDownload(url: file.url, path: path, entry: file.entry, title: file.title))
            }
            return queued
        }
    }

    /// The files queued and not yet whole, in the order they were queued.
    public func pending() throws(ToolError) -> [QueuedDownload] {
        try library.read { db in
            var pending: [QueuedDownload] = []
            try db.each("SELECT url, path, entry, title, error FROM downloads WHERE done IS NULL ORDER BY queued, url") { row in
                pending.append(QueuedDownload(url: row.values[0].string ?? "", path: row.values[1].string ?? "",
                                              entry: row.values[2].string ?? "", title: row.values[3].string ?? "",
                                              error: row.values[4].string))
            }
            return pending
        }
    }

    /// `url` is whole at its path (`error` nil), or its try failed, saying why.
    public func ended(_ url: String, error: String?, now: Date = Date()) throws(ToolError) {
        try library.write { db in
            if let error {
                try db.execute("UPDATE downloads SET error = ? WHERE url = ?", [.text(error), .text(url)])
            } else {
                try db.execute("UPDATE downloads SET done = ?, error = NULL WHERE url = ?", [.real(now.timeIntervalSince1970), .text(url)])
            }
        }
    }
}

extension Library {
    /// The files `blogctl download` has queued.
    public var downloads: DownloadQueue { DownloadQueue(library: self) }
}
