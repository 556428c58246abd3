import SQLiteKit
import ToolboxKit

/// How a search runs. A post matches when each word is somewhere in it: in its title, author
/// or summary (`posts`, `grams`) or in any chunk of its body (`chunks`, `gramchunks`, whose
/// rowids are the post's row shifted left by `SearchIndex.chunkShift` plus the chunk's number). So each
/// word is its own lookup in the indexes' word lists, the posts found for every word are
/// intersected, and only the posts shown read a chunk for their snippet: the cost follows the
/// matches, never the length of a body. (`SearchIndex.search` asks it.)
enum SearchMatches {
    /// The posts holding every word, best first: those with a word in their title, then in
    /// their author, their summary, then the rest (the body alone), each group in the order the
    /// posts were first listed. Groups, not BM25: scoring reads every match's positions, of
    /// every post that holds the word, where a group is found in the word lists and
    /// stops at `limit`.
    static func matches(_ db: SQLiteStatements, _ split: SearchGrams.SplitQuery, terms: [String], sources: [String]?, limit: Int,
                        marks: (String, String), centred: Bool) throws -> [SearchIndex.Hit] {
        var sets: [String] = []
        var values: [SQLValue] = []
        func word(_ sql: String, _ binds: [SQLValue]) {
            sets.append("w\(sets.count)(r) AS (\(sql))")
            values += binds
        }
        // The chunks holding any of the words, once: a lone word's posts, and the chunk each
        // post's snippet is from (a prefix such as `the` merges the lists of many words, a cost
        // best paid once).
        try db.execute("CREATE TEMP TABLE IF NOT EXISTS hits(c INTEGER PRIMARY KEY)")
        try db.execute("DELETE FROM temp.hits")
        if !terms.isEmpty {
            try db.execute("INSERT INTO temp.hits SELECT rowid FROM chunks WHERE chunks MATCH ?", [.text(terms.joined(separator: " OR "))])
        }
        for term in terms {
            let body = terms.count == 1 ? "SELECT c >> \(SearchIndex.chunkShift) FROM temp.hits" : "SELECT rowid >> \(SearchIndex.chunkShift) FROM chunks WHERE chunks MATCH ?"
            word("SELECT rowid FROM posts WHERE posts MATCH ? UNION " + body, Array(repeating: .text(term), count: terms.count == 1 ? 1 : 2))
        }
        for phrase in split.longPhrases {
            word("SELECT rowid FROM grams WHERE grams MATCH ? UNION SELECT rowid >> \(SearchIndex.chunkShift) FROM gramchunks WHERE gramchunks MATCH ?",
                 [.text(phrase), .text(phrase)])
        }
        for pattern in split.shortPatterns {
            word("""
                SELECT rowid FROM grams WHERE title LIKE ? ESCAPE '\\' OR author LIKE ? ESCAPE '\\' OR summary LIKE ? ESCAPE '\\'
                UNION SELECT rowid >> \(SearchIndex.chunkShift) FROM gramchunks WHERE text LIKE ? ESCAPE '\\'
                """, Array(repeating: .text(pattern), count: 4))
        }
        guard !sets.isEmpty, limit > 0 else { return [] }
        let intersection = (0..<sets.count).map { "SELECT r FROM w\($0)" }.joined(separator: " INTERSECT ")
        // The matches once, in a table of this connection's own that each group reads in order.
        try db.execute("CREATE TEMP TABLE IF NOT EXISTS matched(r INTEGER PRIMARY KEY)")
        try db.execute("DELETE FROM temp.matched")
        try db.execute("INSERT INTO temp.matched WITH \(sets.joined(separator: ", ")) \(intersection)", values)
        if let sources {
            // Only the matches of the sources asked: a rowid lookup per match, whatever the
            // number of sources or of their posts.
            try db.execute("CREATE TEMP TABLE IF NOT EXISTS wanted(source TEXT PRIMARY KEY)")
            try db.execute("DELETE FROM temp.wanted")
            for start in stride(from: 0, to: sources.count, by: SearchIndex.lookupBatch) {
                let batch = sources[start..<min(start + SearchIndex.lookupBatch, sources.count)]
                try db.execute("INSERT OR IGNORE INTO temp.wanted VALUES " + SearchIndex.values(batch.count, columns: 1), batch.map { .text($0) })
            }
            try db.execute("DELETE FROM temp.matched WHERE (SELECT source FROM ids WHERE row = r) NOT IN (SELECT source FROM temp.wanted)")
        }
        var shown: [Int] = []
        var rank: [Int: Int] = [:]
        for (number, group) in (groups(split, terms: terms) + [nil]).enumerated() where shown.count < limit {
            let within = group.map { " AND r IN (\($0.sql))" } ?? ""
            let rows = try db.rows("SELECT r FROM temp.matched WHERE r NOT IN \(SearchIndex.list(shown.count))\(within) ORDER BY r LIMIT ?",
                                   shown.map { .integer($0) } + (group?.values ?? []) + [.integer(limit - shown.count)])
            let found = rows.compactMap { $0.first?.integer }
            for row in found { rank[row] = number }
            shown += found
        }
        let posts = try db.rows("""
            SELECT p.rowid, p.id, p.title, p.author, p.rowid IN (SELECT row FROM cached), i.source
            FROM posts p JOIN ids i ON i.row = p.rowid WHERE p.rowid IN
            """ + SearchIndex.list(shown.count), shown.map { .integer($0) })
        var byRow: [Int: [String]] = [:]
        for post in posts { byRow[post.first?.integer ?? -1] = post.values.dropFirst().map { $0.string ?? "" } }
        let snippets = try terms.isEmpty ? unspacedSnippets(db, rows: shown, split, marks: marks)
                                         : snippets(db, rows: shown, terms: terms, marks: marks, centred: centred)
        return shown.compactMap { row in
            guard let post = byRow[row] else { return nil }
            var hit = SearchIndex.Hit(id: post[0], title: post[1], author: post[2], snippet: snippets[row]?.text ?? "", cached: post[3] == "1")
            hit.field = snippets[row]?.field
            hit.rank = rank[row] ?? 3
            hit.source = post[4]
            return hit
        }
    }

    /// The posts with a word in their title, their author, their summary: a query of rowids each.
    private static func groups(_ split: SearchGrams.SplitQuery, terms: [String]) -> [(sql: String, values: [SQLValue])] {
        let fields = ["title", "author", "summary"]
        if !terms.isEmpty {
            return fields.map { ("SELECT rowid FROM posts WHERE posts MATCH ?", [.text("{\($0)} : (\(terms.joined(separator: " OR ")))")]) }
        }
        if !split.longPhrases.isEmpty {
            return fields.map { ("SELECT rowid FROM grams WHERE grams MATCH ?", [.text("{\($0)} : (\(split.longPhrases.joined(separator: " OR ")))")]) }
        }
        return fields.map { field in
            ("SELECT rowid FROM grams WHERE " + split.shortPatterns.map { _ in "\(field) LIKE ? ESCAPE '\\'" }.joined(separator: " OR "),
             split.shortPatterns.map { .text($0) })
        }
    }

    /// The rowid of the first chunk of each post in `rows` among the chunks `found` selects
    /// (as `c`): one pass over them, whatever the number of rows (the rowids are kept out of
    /// FTS5's hands, `+`, which would otherwise run its whole query again for each).
    private static func firstChunks(_ db: SQLiteStatements, rows: [Int], found: (sql: String, values: [SQLValue])) throws -> [Int] {
        try db.rows("""
            SELECT min(c) FROM (\(found.sql)) WHERE +(c >> \(SearchIndex.chunkShift)) IN \(SearchIndex.list(rows.count)) GROUP BY c >> \(SearchIndex.chunkShift)
            """, found.values + rows.map { .integer($0) }).compactMap { $0.first?.integer }
    }

    /// `shown` (an FTS5 function of the table `shown`) for each of the `chunks`, by its post's
    /// row. Laid out on a copy of those chunks alone, in a table of this connection's own: over
    /// the index itself FTS5 would merge again the lists of every word a prefix such as `the`
    /// matches, over the whole post, to lay out one chunk.
    private static func layOut(_ db: SQLiteStatements, chunks: [Int], _ shown: String, _ shownValues: [SQLValue],
                               matching query: SQLValue) throws -> [Int: String] {
        guard !chunks.isEmpty else { return [:] }
        try db.execute("CREATE VIRTUAL TABLE IF NOT EXISTS temp.shown USING fts5(text, tokenize = 'unicode61 remove_diacritics 2')")
        try db.execute("DELETE FROM temp.shown")
        try db.execute("INSERT INTO temp.shown(rowid, text) SELECT rowid, text FROM chunks WHERE rowid IN \(SearchIndex.list(chunks.count))",
                       chunks.map { .integer($0) })
        var laidOut: [Int: String] = [:]
        for row in try db.rows("SELECT rowid >> \(SearchIndex.chunkShift), \(shown) FROM temp.shown WHERE shown MATCH ?", shownValues + [query]) {
            laidOut[row.values[0].integer ?? -1] = row.values[1].string ?? ""
        }
        return laidOut
    }

    /// The words around the match in each post of `rows`: from the first chunk of its body
    /// holding a word, else from its fields; on a terminal centred and named (`SearchSnippet`).
    private static func snippets(_ db: SQLiteStatements, rows: [Int], terms: [String], marks: (String, String),
                                 centred: Bool) throws -> [Int: (text: String, field: String?)] {
        let any = SQLValue.text(terms.joined(separator: " OR "))
        let markValues: [SQLValue] = [.text(marks.0), .text(marks.1)]
        let shown = centred ? "highlight(shown, 0, ?, ?)" : "snippet(shown, 0, ?, ?, '…', 12)"
        let chunks = try layOut(db, chunks: firstChunks(db, rows: rows, found: ("SELECT c FROM temp.hits", [])), shown, markValues, matching: any)
        let fields = centred ? "highlight(posts, 3, ?1, ?2), highlight(posts, 2, ?1, ?2), highlight(posts, 1, ?1, ?2)"
                             : "snippet(posts, -1, ?1, ?2, '…', 12)"
        var found: [Int: (text: String, field: String?)] = [:]
        // Placeholders count on from the numbered ones: ?3 is the query, then the rows.
        for row in try db.rows("SELECT rowid, \(fields) FROM posts WHERE posts MATCH ? AND +rowid IN \(SearchIndex.list(rows.count))",
                               markValues + [any] + rows.map { .integer($0) }) {
            let texts = row.values.dropFirst().map { $0.string ?? "" }
            let post = row.values[0].integer ?? -1
            if centred {
                found[post] = SearchSnippet.centred([chunks[post] ?? ""] + texts, marks: marks).map { ($0.text, $0.field) }
            } else {
                found[post] = (chunks[post] ?? texts.first ?? "", nil)
            }
        }
        for (post, chunk) in chunks where found[post] == nil {
            found[post] = centred ? SearchSnippet.centred([chunk], marks: marks).map { ($0.text, $0.field) } : (chunk, nil)
        }
        return found
    }

    /// Snippets for words that are all unspaced: the first chunk holding the first word, else
    /// the fields, each with the words marked and centred on the first.
    private static func unspacedSnippets(_ db: SQLiteStatements, rows: [Int], _ split: SearchGrams.SplitQuery,
                                         marks: (String, String)) throws -> [Int: (text: String, field: String?)] {
        let condition: (sql: String, value: String)? = split.longPhrases.first.map { ("gramchunks MATCH ?", $0) }
            ?? split.shortPatterns.first.map { ("text LIKE ? ESCAPE '\\'", $0) }
        guard let condition else { return [:] }
        let first = try firstChunks(db, rows: rows, found: ("SELECT rowid AS c FROM gramchunks WHERE " + condition.sql, [.text(condition.value)]))
        var chunks: [Int: String] = [:]
        for row in try db.rows("SELECT rowid, text FROM gramchunks WHERE rowid IN \(SearchIndex.list(first.count))", first.map { .integer($0) }) {
            chunks[(row.values[0].integer ?? -1) >> SearchIndex.chunkShift] = row.values[1].string ?? ""
        }
        var fields: [Int: [String]] = [:]
        for row in try db.rows("SELECT rowid, summary, author, title FROM grams WHERE rowid IN \(SearchIndex.list(rows.count))",
                               rows.map { .integer($0) }) {
            fields[row.values[0].integer ?? -1] = row.values.dropFirst().map { $0.string ?? "" }
        }
        let words = split.long + split.short
        var found: [Int: (text: String, field: String?)] = [:]
        for row in rows {
            let texts = [chunks[row] ?? ""] + (fields[row] ?? [])
            found[row] = SearchSnippet.centred(texts.map { SearchGrams.marked($0, words: words, marks: marks) }, marks: marks).map { ($0.text, $0.field) }
        }
        return found
    }
}
