import SQLiteKit
import ToolboxKit

/// Words in scripts without spaces (`UnspacedScript`), found by substring: the `grams` table
/// holds the runs of those scripts in each post's fields under FTS5's trigram tokenizer, with
/// the rowid of its row in `posts`, and `gramchunks` those of each body chunk, with the chunk's
/// rowid. A word of three characters or more is a trigram phrase (the index finds it); a
/// shorter one (`北京`, two characters, a whole word in Chinese) is a LIKE over those
/// runs only, which are short beside the posts' text. (`SearchIndex` writes them and asks them.)
enum SearchGrams {
    static let gramsSchema = """
        CREATE VIRTUAL TABLE grams USING fts5(title, author, summary,
            tokenize = 'trigram case_sensitive 0 remove_diacritics 1')
        """
    static let gramChunksSchema = """
        CREATE VIRTUAL TABLE gramchunks USING fts5(text, tokenize = 'trigram case_sensitive 0 remove_diacritics 1')
        """

    /// The words of a search split: those for `posts` (FTS5's word index) and those for `grams`.
    struct SplitQuery {
        var spaced: [String] = []
        /// Three characters or more: matched through the trigram index.
        var long: [String] = []
        /// One or two characters: matched with LIKE.
        var short: [String] = []

        /// Each word split at white space, then read as the index reads a title: the runs of
        /// the unspaced scripts alone (`UnspacedScript.runs`: punctuation, marks and other
        /// scripts end a run, as they do in the `grams` table) go to the grams; the rest to the
        /// word index. A word that mixes both (`iPhone專用`, `D隚`) goes to the word index whole,
        /// where the tokenizer made one token of it (a lone `D` would have to be a token of its
        /// own); by scalars throughout.
        init(_ words: [String]) {
            for word in words {
                for piece in word.unicodeScalars.split(whereSeparator: { $0.properties.isWhitespace }) {
                    let text = String(String.UnicodeScalarView(piece))
                    let runs = UnspacedScript.runs(text).unicodeScalars.split(separator: " ").map { String(String.UnicodeScalarView($0)) }
                    for run in runs {
                        if run.unicodeScalars.count >= 3 { long.append(run) } else { short.append(run) }
                    }
                    let spacedLetter = piece.contains { scalar in
                        !UnspacedScript.contains(scalar) && !SearchQuery.isMark(scalar)
                            && (scalar.properties.isAlphabetic || scalar.properties.numericType != nil)
                    }
                    if spacedLetter { spaced.append(text) }
                }
            }
        }

        /// The `long` words as trigram phrases, each quoted (a `"` doubled by scalars).
        var longPhrases: [String] { long.map { "\"" + $0.escapingScalars(["\"": "\"\""]) + "\"" } }

        /// The `short` words as LIKE patterns (escaped with `\`, by scalars: `_` followed by a
        /// combining mark is still a LIKE wildcard).
        var shortPatterns: [String] {
            short.map { "%" + $0.escapingScalars(["\\": "\\\\", "%": "\\%", "_": "\\_"]) + "%" }
        }
    }

    /// The index's rows of the posts' unspaced runs in their fields, replaced (none for a post
    /// without any).
    static func putGrams(_ db: SQLiteStatements, _ posts: [(row: Int, fields: [String])]) throws {
        _ = try db.rows("DELETE FROM grams WHERE rowid IN " + SearchIndex.list(posts.count), posts.map { .integer($0.row) })
        let runs = posts.compactMap { post -> [SQLValue]? in
            let runs = post.fields.map { UnspacedScript.runs(SearchQuery.unmarked($0)) }
            return runs.contains(where: { !$0.isEmpty }) ? [.integer(post.row)] + runs.map { .text($0) } : nil
        }
        guard !runs.isEmpty else { return }
        _ = try db.rows("INSERT INTO grams(rowid, title, author, summary) VALUES " + SearchIndex.values(runs.count, columns: 4), runs.flatMap { $0 })
    }

    /// A body chunk's unspaced runs, under the chunk's own rowid (none when it has none).
    static func putGramChunk(_ db: SQLiteStatements, _ rowid: Int, _ text: String) throws {
        let runs = UnspacedScript.runs(text)
        guard !runs.isEmpty else { return }
        _ = try db.rows("INSERT INTO gramchunks(rowid, text) VALUES (?, ?)", [.integer(rowid), .text(runs)])
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
