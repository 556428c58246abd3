import SQLiteKit
import SQLiteNIO
import ToolboxKit

/// Words in scripts without spaces (`UnspacedScript`), found by substring: the `grams` table
/// holds each post's runs of those scripts under FTS5's trigram tokenizer, with the rowid of
/// its row in `posts`. A word of three characters or more is a trigram phrase (the index finds
/// it); a shorter one (`北京`, two characters, a whole word in Chinese) is a LIKE over those
/// runs only, which are short beside the posts' text.
extension SearchIndex {
    static let gramsSchema = """
        CREATE VIRTUAL TABLE grams USING fts5(title, author, summary, body,
            tokenize = 'trigram case_sensitive 0 remove_diacritics 1')
        """

    /// The words of a search split: those for `posts` (FTS5's word index) and those for `grams`.
    struct SplitQuery {
        var spaced: [String] = []
        /// Three characters or more: matched through the trigram index.
        var long: [String] = []
        /// One or two characters: matched with LIKE.
        var short: [String] = []

        init(_ words: [String]) {
            for word in words {
                for piece in word.split(whereSeparator: \.isWhitespace) {
                    if !UnspacedScript.contains(piece) {
                        spaced.append(String(piece))
                    } else if piece.unicodeScalars.count >= 3 {
                        long.append(String(piece))
                    } else {
                        short.append(String(piece))
                    }
                }
            }
        }

        var hasUnspaced: Bool { !long.isEmpty || !short.isEmpty }

        /// The `long` words as one trigram query: each a quoted phrase, all required.
        var gramsMatch: String? {
            long.isEmpty ? nil : long.map { "\"" + $0.replacing("\"", with: "\"\"") + "\"" }.joined(separator: " ")
        }

        /// A condition on `grams` (aliased `g`) for each short word, and its LIKE patterns.
        var likeConditions: (sql: [String], values: [SQLiteData]) {
            var sql: [String] = []
            var values: [SQLiteData] = []
            for word in short {
                let pattern = "%" + word.replacing("\\", with: "\\\\").replacing("%", with: "\\%").replacing("_", with: "\\_") + "%"
                sql.append("(" + ["g.title", "g.author", "g.summary", "g.body"].map { $0 + " LIKE ? ESCAPE '\\'" }.joined(separator: " OR ") + ")")
                values += Array(repeating: .text(pattern), count: 4)
            }
            return (sql, values)
        }

        /// The conditions on `grams` (aliased `g`) for every unspaced word.
        var conditions: (sql: [String], values: [SQLiteData]) {
            var conditions: [String] = []
            var values: [SQLiteData] = []
            if let match = gramsMatch {
                conditions.append("grams MATCH ?")
                values.append(.text(match))
            }
            let likes = likeConditions
            return (conditions + likes.sql, values + likes.values)
        }

        /// `rowid IN (…)`: the rows of `posts` whose unspaced runs hold every unspaced word.
        var rowCondition: (sql: String, values: [SQLiteData]) {
            let own = conditions
            return ("rowid IN (SELECT g.rowid FROM grams g WHERE " + own.sql.joined(separator: " AND ") + ")", own.values)
        }
    }

    /// The index's row of a post's unspaced runs, replaced (none when the post has none).
    static func putGrams(_ db: SQLiteStatements, _ row: Int, _ columns: [String]) throws {
        _ = try db.rows("DELETE FROM grams WHERE rowid = ?", [.integer(row)])
        let runs = columns.map { UnspacedScript.runs(SearchQuery.unmarked($0)) }
        guard runs.contains(where: { !$0.isEmpty }) else { return }
        _ = try db.rows("INSERT INTO grams(rowid, title, author, summary, body) VALUES (?, ?, ?, ?, ?)",
                        [.integer(row)] + runs.map { .text($0) })
    }

    /// Posts matching words that are all unspaced: best first (a title's match counts most),
    /// with a snippet centred on the first match in the field it is in.
    static func unspacedRows(_ db: SQLiteStatements, _ split: SplitQuery, limit: Int, marks: (String, String)) throws -> [Hit] {
        let conditions = split.conditions
        let order = split.gramsMatch != nil ? "ORDER BY bm25(grams, 10.0, 5.0, 3.0, 1.0)" : "ORDER BY g.rowid"
        let sql = """
            SELECT p.id, p.title, p.author, g.body, g.summary, g.author, g.title, p.id IN (SELECT id FROM cached)
            FROM grams g JOIN posts p ON p.rowid = g.rowid
            WHERE \(conditions.sql.joined(separator: " AND ")) \(order) LIMIT ?
            """
        let values = conditions.values + [.integer(limit)]
        return try db.rows(sql, values).map { row in
            let text = row.columns.map { $0.data.string ?? "" }
            let fields = text[3...6].map { field in marked(field, words: split.long + split.short, marks: marks) }
            let found = SearchSnippet.centred(fields, marks: marks)
            var hit = Hit(id: text[0], title: text[1], author: text[2], snippet: found?.text ?? "", cached: text[7] == "1")
            hit.field = found?.field
            return hit
        }
    }

    /// `text` with the first occurrence of each of `words` between `marks` (these scripts have no case).
    static func marked(_ text: String, words: [String], marks: (String, String)) -> String {
        var result = text
        for word in words {
            guard let range = result.firstRange(of: word) else { continue }
            result.replaceSubrange(range, with: marks.0 + result[range] + marks.1)
        }
        return result
    }
}
