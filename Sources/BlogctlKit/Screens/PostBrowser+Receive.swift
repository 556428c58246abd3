import ScreenKit
import ToolboxKit

extension PostBrowser {
    public mutating func receive(_ message: Message) -> [Command] {
        switch message {
        case .listing(let posts, let marks, let fromServer):
            if fromServer {
                loadingList = false
                showsSavedList = false
                chrome.status.online = true
                chrome.status.error = nil
            }
            postList.show(posts, marks: marks)
        case .listFailed(let failure):
            loadingList = false
            chrome.status.online = !Self.meansOffline(failure)
            chrome.status.error = failure.brief + " (r retries)"
            showsSavedList = postList.hasListing
        case .progress(let id, let done, let total, let seconds):
            guard reader?.metadata.id == id else { return [] }
            reader?.progress(done: done, total: total, seconds: seconds)
        case .post(let id, let result):
            guard var reader, reader.metadata.id == id else { return [] }
            switch result {
            case .success(let text):
                reader = PostReader(metadata: text.metadata)
                reader.layout(chrome.inset)
                reader.loaded(text: text.text, links: text.links)
                if text.offline {
                    chrome.status.online = false
                    chrome.notice = "the server cannot be reached: the cached copy"
                }
            case .failure(let failure):
                if Self.meansOffline(failure) {
                    chrome.status.online = false
                    reader.failed("not cached, and the server cannot be reached: \(failure.brief)")
                } else {
                    reader.failed(failure.brief)
                }
            }
            self.reader = reader
        case .cachedOnly(let id):
            guard reader?.metadata.id == id else { return [] }
            chrome.status.online = false
            chrome.notice = "the server cannot be reached: the cached copy"
        case .rendered(let id, let width, let text):
            guard reader?.metadata.id == id, width == paneWidth else { return [] }
            reader?.loaded(text: text.text, links: text.links)
        case .marked(let failure):
            if let failure { chrome.status.error = "marks not saved: " + failure.brief }
        case .found(let query, let result):
            guard results?.query == query else { return [] }
            results?.found(result, listed: postList.posts)
        case .downloadProgress(let name, let done, let total):
            chrome.notice = "downloading " + name + ": " + ProgressDisplay.bytes(done) + (total.map { " of " + ProgressDisplay.bytes($0) } ?? "")
        case .downloaded(let path, let failure):
            chrome.notice = failure.map { $0.message + " (still queued: blogctl download resumes it)" } ?? "downloaded " + path
        case .opened(let url, let failure):
            chrome.notice = failure.map { $0.message } ?? "opened " + url
        case .prefetchProgress(let done, let total):
            if prefetching != nil { prefetching = (done, total) }
        case .prefetched(let fetched, let failed, let firstFailure):
            prefetching = nil
            chrome.notice = "prefetch: \(fetched) fetched" + (failed > 0 ? ", \(failed) failed" : "")
            if let firstFailure { chrome.status.error = firstFailure }
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
