import ScreenKit
import ToolboxKit

extension PostBrowser {
    /// Keys while a post is open: the pane's own, then what they ask of the browser.
    mutating func handleReader(_ key: KeyPress) -> [Command] {
        guard var reader else { return [] }
        let request = reader.handle(key)
        self.reader = reader
        switch request {
        case .handled: return []
        case .back:
            self.reader = nil
            return reader.isLoading ? [.stopLoading] : []
        case .next, .previous:
            let index = readingIndex + (request == .next ? 1 : -1)
            guard index >= 0, index < readingOrder.count else {
                notice = request == .next ? "this is the last post" : "this is the first post"
                return []
            }
            return open(at: index)
        case .toggleRead: return toggleRead(reader.metadata.id)
        case .reload:
            self.reader?.reloading()
            return [.openPost(id: reader.metadata.id, width: paneWidth)]
        case .help:
            showsHelp = true
            return []
        case .openLink(let url):
            guard BrowserLauncher.isOpenable(url) else {
                notice = "not opened: only http and https links are"
                return []
            }
            notice = "opening " + url
            return [.openLink(url)]
        }
    }

    public mutating func receive(_ message: Message) -> [Command] {
        switch message {
        case .listing(let posts, let marks, let fromServer):
            if fromServer {
                loadingList = false
                showsSavedList = false
                status.online = true
                status.error = nil
            }
            self.posts = posts
            if let marks { takeMarks(marks) }
            hasListing = true
            arrange()
        case .listFailed(let failure):
            loadingList = false
            status.online = !Self.meansOffline(failure)
            status.error = failure.brief + " (r retries)"
            showsSavedList = hasListing
        case .progress(let id, let done, let total, let seconds):
            guard reader?.metadata.id == id else { return [] }
            reader?.progress(done: done, total: total, seconds: seconds)
        case .post(let id, let result):
            guard var reader, reader.metadata.id == id else { return [] }
            switch result {
            case .success(let text):
                reader = PostReader(metadata: text.metadata)
                reader.loaded(text: text.text, links: text.links)
                if text.offline {
                    status.online = false
                    notice = "the server cannot be reached: the cached copy"
                }
            case .failure(let failure):
                if Self.meansOffline(failure) {
                    status.online = false
                    reader.failed("not cached, and the server cannot be reached: \(failure.message)")
                } else {
                    reader.failed(failure.message)
                }
            }
            self.reader = reader
        case .cachedOnly(let id):
            guard reader?.metadata.id == id else { return [] }
            status.online = false
            notice = "the server cannot be reached: the cached copy"
        case .rendered(let id, let width, let text):
            guard reader?.metadata.id == id, width == paneWidth else { return [] }
            reader?.loaded(text: text.text, links: text.links)
        case .marked(let failure):
            if let failure { status.error = "marks not saved: " + failure.brief }
        case .found(let query, let result):
            guard results?.query == query else { return [] }
            results?.found(result, listed: posts)
        case .opened(let url, let failure):
            notice = failure.map { $0.message } ?? "opened " + url
        case .prefetchProgress(let done, let total):
            if prefetching != nil { prefetching = (done, total) }
        case .prefetched(let fetched, let failed, let firstFailure):
            prefetching = nil
            notice = "prefetch: \(fetched) fetched" + (failed > 0 ? ", \(failed) failed" : "")
            if let firstFailure { status.error = firstFailure }
        }
        return []
    }

    /// The server could not be reached at all (not an answer that refused).
    static func meansOffline(_ error: ToolError) -> Bool {
        switch error {
        case .unreachable, .timedOut, .proxyUnreachable: true
        default: false
        }
    }
}
