import ScreenKit
import ToolboxKit

extension FeedList {
    public func draw(into canvas: inout Canvas) {
        if let entries {
            entries.draw(into: &canvas)
            return
        }
        var chrome = self.chrome
        chrome.status.loading = refreshing ? "refreshing" : nil
        if let search {
            chrome.status.counts = search.counts
            search.results.draw(into: &canvas, rect: chrome.body, read: nil, tick: chrome.tick)
            if let menu { menu.draw(into: &canvas) }
            chrome.draw(into: &canvas, title: "blogctl › " + search.title, hints: FeedSearch.hints)
            return
        }
        if let filter = list.filterLabel { chrome.status.counts = filter + " · " + chrome.status.counts }
        drawFeeds(into: &canvas, rect: chrome.body)
        if let menu { menu.draw(into: &canvas) }
        chrome.draw(into: &canvas, title: "blogctl › feeds", hints: list.isFiltering ? ListView.filterHints : Self.keys.hints,
                    helpHint: list.isFiltering ? nil : "? help")
    }

    /// " • Name ……… 3 unread of 12": • while a feed has unread entries, ! when its last refresh
    /// failed (the error instead of the counts), the name bold while unread.
    private func drawFeeds(into canvas: inout Canvas, rect: Rect) {
        if !hasFeeds {
            canvas.put(" " + Spinner.frame(chrome.tick) + " reading the subscriptions…", row: rect.row, column: 0, width: rect.columns)
            return
        }
        let feeds = self.feeds
        list.draw(into: &canvas) { canvas, index, _, row, column, width in
            let feed = feeds[index]
            let counts = feed.entries == 0 ? "no entries" : "\(feed.unread) unread of \(feed.entries)"
            let right = feed.error.map { "! " + TextWidth.truncate($0, to: max(width / 3, 12)) + " · " + counts } ?? counts
            PostList.drawEntry(into: &canvas, row: row, column: column, width: width,
                                  mark: feed.error != nil ? "!" : feed.unread > 0 ? "•" : " ",
                                  title: feed.name, right: right, bold: feed.unread > 0)
        }
    }
}
