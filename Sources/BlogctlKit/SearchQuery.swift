import CoreKit

/// What `blogctl search` asks the index: the words a user typed as an FTS5 query, and the
/// marks that frame matched words in snippets. Pure, so that it is fuzzed against SQLite's own
/// FTS5 parser (`fuzz/search-query.swift`).
public enum SearchQuery {
    /// The private-use characters `search` marks matches with, in the text it shows.
    public static let marks = ("\u{E000}", "\u{E001}")

    /// Text as it is indexed: the mark characters replaced by U+FFFD, so that in a snippet
    /// they are only ever the marks (a title holding U+E000 turned bold on a terminal).
    public static func unmarked(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0 == "\u{E000}" || $0 == "\u{E001}" }) else { return text }
        return String(String.UnicodeScalarView(text.unicodeScalars.map { $0 == "\u{E000}" || $0 == "\u{E001}" ? "\u{FFFD}" : $0 }))
    }

    /// The most distinct words one search takes: each is a phrase FTS5 matches on its own.
    public static let wordLimit = 64

    /// The words as an FTS5 query: each a quoted phrase (so nothing in it is syntax) matching
    /// as a prefix (a word of one letter, only itself), all required; a word given twice counts
    /// once. Worked out on Unicode scalars, as FTS5 reads it: a `"` followed by a combining mark
    /// is one Character but still a quote to FTS5, and is doubled. nil when no word has a letter or digit.
    public static func fts5(_ words: [String]) throws(ToolError) -> String? {
        let terms = try terms(words)
        return terms.isEmpty ? nil : terms.joined(separator: " ")
    }

    /// The words as FTS5 phrases, one per distinct word (each alone is a query: the index
    /// finds each word's posts on its own, in a post's fields or any chunk of its body).
    public static func terms(_ words: [String]) throws(ToolError) -> [String] {
        var terms: [String] = []
        var seen = Set<[UInt8]>()
        for word in words {
            for piece in word.unicodeScalars.split(whereSeparator: { $0.properties.isWhitespace }) {
                // A word needs a letter or digit that is not a mark: FTS5's tokenizer strips
                // marks, and a word of marks alone (`ͭ`) would be an empty phrase that
                // matches nothing, and so sinks every other word of the search.
                guard piece.contains(where: { ($0.properties.isAlphabetic || $0.properties.numericType != nil) && !Self.isMark($0) }) else { continue }
                var term = String.UnicodeScalarView()
                term.append("\"")
                for scalar in piece {
                    if scalar == "\"" { term.append(scalar) }
                    term.append(scalar)
                }
                // A word of one letter matches itself only: as a prefix it would match nearly every
                // post (and make FTS5 merge the lists of every word starting with it).
                term.append(contentsOf: (piece.count == 1 ? "\"" : "\"*").unicodeScalars)
                let text = String(term)
                if seen.insert(Array(text.utf8)).inserted { terms.append(text) }
            }
        }
        guard terms.count <= wordLimit else {
            throw .usage("\(terms.count) words to search for; at most \(wordLimit) in one search")
        }
        return terms
    }

    static func isMark(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: true
        default: false
        }
    }
}
