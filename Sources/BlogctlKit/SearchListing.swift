import ToolboxKit

/// `blogctl search`'s output: the hits as a table (matched words bold on a colour terminal),
/// TSV or JSON. The index marks matches with private-use characters (`SearchQuery.marks`,
/// which it never holds itself), so they pass the table's sanitising and become bold, or
/// nothing, only here.
public enum SearchListing {
    public static func render(_ hits: [SearchIndex.Hit], mode: OutputMode, bold: Bool) -> String {
        let (open, close) = SearchQuery.marks
        func plain(_ text: String) -> String { text.replacing(open, with: "").replacing(close, with: "") }
        switch mode {
        case .json:
            let plainHits = hits.map {
                SearchIndex.Hit(id: $0.id, title: $0.title, author: $0.author, snippet: plain($0.snippet), cached: $0.cached)
            }
            return String(decoding: JSONCoding.encode(plainHits, pretty: true), as: UTF8.self) + "\n"
        case .tsv:
            return Table(columns: [], rows: hits.map { [$0.id, $0.title, plain($0.snippet)] }).tsv()
        case .table:
            let text = Table(columns: ["ID", "TITLE", "SNIPPET"], rows: hits.map { [SearchQuery.unmarked($0.id), $0.title, ($0.field.map { $0 + ": " } ?? "") + $0.snippet] },
                             // The id never gives way, so that it can be typed back (issue 47).
                             fits: [.keep, .shrink(order: 1, minimum: 12), .shrink(order: 0, minimum: 0)])
                .render(.table)
            return text.replacing(open, with: bold ? SGR.bold : "").replacing(close, with: bold ? SGR.reset : "")
        }
    }
}
