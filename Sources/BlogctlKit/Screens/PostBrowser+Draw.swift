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
            chrome.status.counts = postList.counts
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
            results.draw(into: &canvas, rect: body, read: postList.read, tick: chrome.tick)
            chrome.draw(into: &canvas, title: "blogctl › search: " + results.query, hints: Self.resultHints)
        } else {
            let filter = postList.unreadOnly ? ", unread only" : ""
            let saved = showsSavedList ? " · the saved list" : ""
            let filtering = postList.list.isFiltering
            postList.draw(into: &canvas, rect: body, loading: loadingList, tick: chrome.tick)
            let prompting = postList.expressionField != nil
            chrome.draw(into: &canvas, title: "blogctl › " + heading + " (" + postList.arrangement.summary + filter + ")" + saved,
                        hints: filtering ? Self.filterHints : prompting ? Self.expressionHints : Self.listKeys.hints,
                        helpHint: filtering || prompting ? nil : "? help")
            // Over the list's last row, as less prompts.
            postList.expressionField?.draw(into: &canvas, row: body.row + body.rows - 1, column: 0, width: body.columns, focused: true)
        }
        if let menu { menu.draw(into: &canvas) }
    }

    /// Search results keep the list's keys; Esc goes back to the posts.
    /// A filter kept here also searches the cached bodies: the footer says so.
    static let filterHints = ListView.filterKeys.hints(where: { $0 == .keep || $0 == .clear },
                                                       hint: { $0 == .keep ? "keeps it and searches the bodies too" : nil })
    static let expressionHints = ["Enter applies it", "Esc leaves it", "empty: no filter"]
    static let resultHints = listKeys.hints(where: { [.open, .filter, .back, .quit].contains($0) },
                                            hint: { $0 == .filter ? "filter again" : $0 == .back ? "all posts" : nil })
}
