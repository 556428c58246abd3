import ToolboxKit

/// `blogctl search`'s output: the hits as a table (matched words bold on a colour terminal),
/// TSV or JSON. The index marks matches with private-use characters (`SearchQuery.marks`,
/// which it never holds itself), so they pass the table's sanitising and become bold, or
/// nothing, only here.
public enum SearchListing {
    /// `idLength`: the table shows each id's first that many scalars (`IDPrefix`, a form `read`
    /// takes back: `Library.idPrefixLength` over the feeds searched); piped and JSON output
    /// keep whole ids.
    public static func render(_ hits: [SearchIndex.Hit], mode: OutputMode, bold: Bool, idLength: Int? = nil) -> String {
        let (open, close) = SearchQuery.marks
        func plain(_ text: String) -> String { text.replacing(open, with: "").replacing(close, with: "") }
        // Over every subscription, a FEED column first, as list has it.
        let feeds = hits.contains { $0.feed != nil }
        func feed(_ hit: SearchIndex.Hit) -> [String] { feeds ? [hit.feed ?? ""] : [] }
        func shown(_ id: String) -> String { idLength.map { String(String.UnicodeScalarView(id.unicodeScalars.prefix($0))) } ?? id }
        switch mode {
        case .json:
            let plainHits = hits.map {
                var hit = SearchIndex.Hit(id: $0.id, title: $0.title, author: $0.author, snippet: plain($0.snippet), cached: $0.cached)
                hit.feed = $0.feed
                return hit
            }
            return String(decoding: JSONCoding.encode(plainHits, pretty: true), as: UTF8.self) + "\n"
        case .tsv:
            return Table(columns: [], rows: hits.map { feed($0) + [$0.id, $0.title, plain($0.snippet)] }).tsv()
        case .table:
            let text = Table(columns: (feeds ? ["FEED"] : []) + ["ID", "TITLE", "SNIPPET"],
                             rows: hits.map { feed($0) + [shown(SearchQuery.unmarked($0.id)), $0.title, ($0.field.map { $0 + ": " } ?? "") + $0.snippet] },
                             // The id never gives way, so that it can be typed back (issue 47).
                             fits: (feeds ? [.shrink(order: 2, minimum: 8)] : []) + [.keep, .shrink(order: 1, minimum: 12), .shrink(order: 0, minimum: 0)])
                .render(.table)
            return text.replacing(open, with: bold ? SGR.bold : "").replacing(close, with: bold ? SGR.reset : "")
        }
    }
}
