import ScreenKit
import ToolboxKit

extension PostBrowser {
    public mutating func draw(into canvas: inout Canvas) {
        paneWidth = Self.paneWidth(columns: canvas.columns)
        let body = Rect(row: 1, column: 0, rows: max(canvas.rows - 3, 1), columns: canvas.columns)
        listRect = body
        if var reader {
            reader.draw(into: &canvas, rect: Rect(row: 1, column: 1, rows: body.rows, columns: canvas.columns - 2), tick: frame)
            // The title, then where the view is (as less and newsboat show it) at the right.
            let position = reader.load == .loaded ? reader.pane.position.map { " " + $0 + " " } ?? "" : ""
            canvas.put(" blogctl › " + reader.metadata.title, row: 0, column: 0, width: canvas.columns - TextWidth.of(position), style: .heading)
            canvas.put(position, row: 0, column: canvas.columns - TextWidth.of(position), style: .heading)
            self.reader = reader
        } else if var results {
            canvas.put(" blogctl › search: " + results.query, row: 0, column: 0, style: .heading)
            drawResults(&results, into: &canvas, rect: body)
            self.results = results
        } else {
            let filter = unreadOnly ? ", unread only" : ""
            let saved = showsSavedList ? " · the saved list" : ""
            canvas.put(" blogctl › posts (" + arrangement.summary + filter + ")" + saved, row: 0, column: 0, style: .heading)
            drawPosts(into: &canvas, rect: body)
        }
        let hint = notice ?? reader?.notice ?? (reader != nil
            ? "Space/b page · / find · ] [ next/previous · l links · u unread · Esc back"
            : results != nil ? "Enter read · / search again · Esc all posts · q quit"
            : "Enter read · o arrange · / search · U unread · P prefetch · q quit")
        canvas.put(" " + hint, row: canvas.rows - 2, column: 0, width: canvas.columns, style: .dim)
        if var field = searchField {
            _ = field.draw(into: &canvas, row: canvas.rows - 2, column: 0, width: canvas.columns, focused: true)
        }
        drawStatus(into: &canvas)
        if let menu { menu.draw(into: &canvas) }
        if showsHelp {
            let lines = reader == nil ? Self.listKeys.helpLines : PostReader.keys.helpLines
            HelpOverlay.draw(into: &canvas, title: reader == nil ? "posts: keys" : "reading: keys", lines: lines)
        }
    }

    private mutating func drawPosts(into canvas: inout Canvas, rect: Rect) {
        if !hasListing {
            let text = loadingList ? Spinner.frame(frame) + " loading the posts…" : "no posts: the server cannot be reached and none are saved"
            canvas.put(" " + text, row: rect.row, column: 0, width: rect.columns)
            return
        }
        let shown = self.shown
        let read = self.read
        let wide = rect.columns >= 80
        list.draw(into: &canvas, rect: rect) { canvas, index, line, row, column, width in
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

    private func drawResults(_ results: inout SearchResults, into canvas: inout Canvas, rect: Rect) {
        guard let hits = results.hits else {
            canvas.put(" " + Spinner.frame(frame) + " searching…", row: rect.row, column: 0, width: rect.columns)
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
        results.list.draw(into: &canvas, rect: rect) { canvas, index, line, row, column, width in
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

    private mutating func drawStatus(into canvas: inout Canvas) {
        if results != nil, let hits = results?.hits {
            status.counts = "\(hits.count) found"
        } else {
            status.counts = "\(posts.count) posts · \(unreadCount) unread"
        }
        if let prefetching {
            status.loading = "prefetch \(prefetching.done)/\(prefetching.total)"
        } else {
            status.loading = loadingList ? "loading" : nil
        }
        status.draw(into: &canvas, frame: frame)
    }
}
