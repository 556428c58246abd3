import FoundationEssentials
import ScreenKit
import ToolboxKit

/// What `/` on the list found in the search index: the hits, best first, in a list of their
/// own that replaces the posts until Esc.
public struct SearchResults: Sendable {
    public let query: String
    /// Nil while the search runs.
    public private(set) var hits: [SearchIndex.Hit]?
    public private(set) var error: String?
    /// The hits as posts, in order: the listed post of each id, or what the index knows of it.
    public private(set) var posts: [PostMetadata] = []
    var list = ListView(linesPerItem: 2)

    /// What the list says when nothing was found.
    var nothingFound: String

    init(query: String, nothingFound: String? = nil) {
        self.query = query
        self.nothingFound = nothingFound ?? "nothing found for \"\(query)\" (only cached posts' bodies are searched: P prefetches)"
    }

    /// The search's answer; `listed` gives each hit its full metadata once, not at every key.
    mutating func found(_ result: Result<[SearchIndex.Hit], ToolError>, listed: [PostMetadata]) {
        switch result {
        case .success(let hits):
            self.hits = hits
            var byID: [[UInt8]: PostMetadata] = [:]
            for post in listed { byID[Array(post.id.utf8)] = post }
            posts = hits.map { hit in
                byID[Array(hit.id.utf8)] ?? PostMetadata(
                    id: hit.id, title: hit.title, publishDate: Date(timeIntervalSince1970: 0), postId: hit.id,
                    summary: "", author: Author(name: hit.author, image: "", title: ""))
            }
            list.setSections([ListView.Section(items: hits.map(\.title))])
        case .failure(let failure):
            hits = []
            error = failure.message
            list.setSections([])
        }
    }

    /// The hits in two rows each (the title, the snippet with its matches bold), or why
    /// there are none. `read` nil: hits of many feeds, marked neither way; each names its feed.
    func draw(into canvas: inout Canvas, rect: Rect, read: ReadMarks.IDs?, tick: Int) {
        guard let hits else {
            canvas.put(" " + Spinner.frame(tick) + " searching…", row: rect.row, column: 0, width: rect.columns)
            return
        }
        if let error {
            canvas.put(" " + error, row: rect.row, column: 0, width: rect.columns, style: Style(bold: true, color: .red))
            return
        }
        if hits.isEmpty {
            canvas.put(" " + nothingFound, row: rect.row, column: 0, width: rect.columns, style: .dim)
            return
        }
        list.draw(into: &canvas) { canvas, index, line, row, column, width in
            let hit = hits[index]
            if line == 0 {
                let from = (hit.feed.map { $0 + " · " } ?? "") + hit.author
                PostList.drawEntry(into: &canvas, row: row, column: column, width: width, mark: read?.contains(hit.id) == false ? "•" : " ",
                                   title: hit.title, right: TextWidth.truncate(from, to: max(width / 3, 8)), bold: true)
            } else {
                var x = canvas.put("   ", row: row, column: column, width: width)
                for part in Self.parts(of: hit.snippet) {
                    x = canvas.put(part.text, row: row, column: x, width: column + width - x, style: part.matched ? .bold : .dim)
                }
            }
        }
    }

    /// The snippet's parts, each marked as a match or not (the index marks matches with
    /// `SearchQuery.marks`).
    static func parts(of snippet: String) -> [(text: String, matched: Bool)] {
        var parts: [(text: String, matched: Bool)] = []
        var current = ""
        var matched = false
        for character in snippet {
            if character == Character(SearchQuery.marks.0) || character == Character(SearchQuery.marks.1) {
                if !current.isEmpty { parts.append((current, matched)) }
                current = ""
                matched = character == Character(SearchQuery.marks.0)
            } else {
                current.append(character)
            }
        }
        if !current.isEmpty { parts.append((current, matched)) }
        return parts
    }
}
