/// A schema's changes in order, each applied once in its own transaction and listed by its
/// identifier in a log table. Never edit one that shipped; add another. A file whose log names
/// a change this program does not know was written by a newer one: `unknown` says which.
public struct SQLiteMigrations: Sendable {
    public typealias Step = (identifier: String, sql: [String])
    /// The table that lists the applied changes.
    public let log: String
    public let steps: [Step]

    public init(log: String = "migrations", _ steps: [Step]) {
        self.log = log
        self.steps = steps
    }

    /// Applies the changes `file` has not seen yet. A file that has them all is only read.
    public func apply(to file: SQLiteFile) throws {
        let applied = try file.transaction(.read) { db -> Set<String> in
            guard try db.value("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", [.text(log)]) != nil else { return [] }
            return Set(try db.rows("SELECT identifier FROM \(log)").compactMap { $0.first?.string })
        }
        for step in steps where !applied.contains(step.identifier) {
            try file.transaction(.write) { db in
                try db.execute("CREATE TABLE IF NOT EXISTS \(log) (identifier TEXT NOT NULL PRIMARY KEY)")
                guard try db.value("SELECT 1 FROM \(log) WHERE identifier = ?", [.text(step.identifier)]) == nil else { return }
                for statement in step.sql { try db.execute(statement) }
                try db.execute("INSERT INTO \(log) (identifier) VALUES (?)", [.text(step.identifier)])
            }
        }
    }

    /// The applied changes this program does not know, sorted; none for a file without a log.
    public func unknown(in db: SQLiteStatements) throws -> [String] {
        guard try db.value("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", [.text(log)]) != nil else { return [] }
        let known = Set(steps.map(\.identifier))
        return try db.rows("SELECT identifier FROM \(log)").compactMap { $0.first?.string }
            .filter { !known.contains($0) }.sorted()
    }
}
