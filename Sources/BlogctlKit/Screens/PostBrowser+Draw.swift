import ScreenKit
import ToolboxKit

extension PostBrowser {
    public func draw(into canvas: inout Canvas) {
        var chrome = self.chrome
        // Every filter in force is named beside the counts (issue 47): the search, the list's
        // filter, the unread-only view; Esc clears them.
        if let results {
            chrome.status.counts = (results.hits.map { "\($0.count) found · " } ?? "") + "search " + Terminal.quote(results.query, limit: 30)
        } else {
            let shown = list.filterLabel == nil ? "\(posts.count) posts" : "\(list.shownCount) of \(posts.count) posts"
            chrome.status.counts = [list.filterLabel, shown, unreadOnly ? "unread only" : nil, "\(unreadCount) unread"]
                .compactMap { $0 }.joined(separator: " · ")
        }
        chrome.status.loading = prefetching.map { "prefetch \($0.done)/\($0.total)" } ?? (loadingList ? "loading" : nil)
        let body = chrome.body
        if let reader {
            reader.draw(into: &canvas, tick: chrome.tick)
            if chrome.notice == nil { chrome.notice = reader.notice }
            // Where the view is, as less and newsboat show it, at the right of the title.
            let position = reader.load == .loaded ? reader.pane.position.map { " " + $0 + " " } ?? "" : ""
            chrome.draw(into: &canvas, title: "blogctl › " + reader.metadata.title, right: [(position, .heading)],
                        hints: PostReader.keys.hints, helpHint: reader.finding == nil ? "? help" : nil)
        } else if let results {
            drawResults(results, into: &canvas, rect: body)
            chrome.draw(into: &canvas, title: "blogctl › search: " + results.query, hints: Self.resultHints)
        } else {
            let filter = unreadOnly ? ", unread only" : ""
            let saved = showsSavedList ? " · the saved list" : ""
            drawPosts(into: &canvas, rect: body)
            chrome.draw(into: &canvas, title: "blogctl › " + heading + " (" + arrangement.summary + filter + ")" + saved, hints: list.isFiltering ? Self.filterHints : Self.listKeys.hints,
                        helpHint: list.isFiltering ? nil : "? help")
        }
        if let menu { menu.draw(into: &canvas) }
    }

    /// Search results keep the list's keys; Esc goes back to the posts.
    /// A filter kept here also searches the cached bodies: the footer says so.
    static let filterHints = ListView.filterKeys.hints(where: { $0 == .keep || $0 == .clear },
                                                       hint: { $0 == .keep ? "keeps it and searches the bodies too" : nil })
    static let resultHints = listKeys.hints(where: { [.open, .filter, .back, .quit].contains($0) },
                                            hint: { $0 == .filter ? "filter again" : $0 == .back ? "all posts" : nil })

    private func drawPosts(into canvas: inout Canvas, rect: Rect) {
        if !hasListing {
            let text = loadingList ? Spinner.frame(chrome.tick) + " loading the posts…" : "no posts: the server cannot be reached and none are saved"
            canvas.put(" " + text, row: rect.row, column: 0, width: rect.columns)
            return
        }
        let shown = self.shown
        let read = self.read
        let wide = rect.columns >= 80
        list.draw(into: &canvas) { canvas, index, line, row, column, width in
            let post = shown[index]
            let isRead = read.contains(post.id)
            if line == 0 {
                let date = wide ? DateDisplay.human(post.publishDate) : String(DateDisplay.human(post.publishDate).prefix(10))
                Self.drawEntry(into: &canvas, row: row, column: column, width: width, mark: isRead ? " " : "•",
                               title: post.title, right: TextWidth.truncate(post.author.name, to: max(width / 4, 8)) + " · " + date, bold: !isRead)
            } else {
                canvas.put("   " + post.summary, row: row, column: column, width: width, style: .dim)
            }
        }
    }

    private func drawResults(_ results: SearchResults, into canvas: inout Canvas, rect: Rect) {
        guard let hits = results.hits else {
            canvas.put(" " + Spinner.frame(chrome.tick) + " searching…", row: rect.row, column: 0, width: rect.columns)
            return
        }
        if let error = results.error {
            canvas.put(" " + error, row: rect.row, column: 0, width: rect.columns, style: Style(bold: true, color: .red))
            return
        }
        if hits.isEmpty {
            canvas.put(" nothing found for \"\(results.query)\" (only cached posts' bodies are searched: P prefetches)",
                       row: rect.row, column: 0, width: rect.columns, style: .dim)
            return
        }
        let read = self.read
        results.list.draw(into: &canvas) { canvas, index, line, row, column, width in
            let hit = hits[index]
            if line == 0 {
                Self.drawEntry(into: &canvas, row: row, column: column, width: width, mark: read.contains(hit.id) ? " " : "•",
                               title: hit.title, right: TextWidth.truncate(hit.author, to: max(width / 3, 8)), bold: true)
            } else {
                var x = canvas.put("   ", row: row, column: column, width: width)
                for part in SearchResults.parts(of: hit.snippet) {
                    x = canvas.put(part.text, row: row, column: x, width: column + width - x, style: part.matched ? .bold : .dim)
                }
            }
        }
    }

    /// " • Title ……… Author · 2018-08-23 10:15": the right part whole, the title cut to fit.
    static func drawEntry(into canvas: inout Canvas, row: Int, column: Int, width: Int, mark: String,
                          title: String, right: String, bold: Bool) {
        let rightWidth = min(TextWidth.of(Terminal.sanitizeField(right)), max(width - 12, 0))
        canvas.put(" " + mark + " ", row: row, column: column, width: width, style: .bold)
        canvas.put(title, row: row, column: column + 3, width: max(width - 3 - rightWidth - 3, 0), style: bold ? .bold : .plain)
        canvas.put(right, row: row, column: column + width - rightWidth - 1, width: rightWidth, style: .plain)
    }
}
