import Dispatch
import Synchronization
import ToolboxKit
import BlogctlEngines

/// A big feed's document read on a thread of its own while its entries are made and written
/// on the caller's: the reading thread hands over what it reads (an XML feed's drafts, a JSON
/// Feed's entries) in batches, in document order, through a bounded queue, and the document's
/// result last. Each side is single-threaded; only this queue is shared. The reader blocks
/// when `capacity` batches wait (memory stays bounded); the caller blocks until a batch or the
/// end comes. Neither is a task: the reader is a `PosixThread`, the caller the library's queue.
final class FeedHandoff: FeedDraftSink, FeedEntrySink, Sendable {
    enum Item: Sendable {
        case draft(FeedEntryDraft)
        case entry(FeedEntry)
    }

    /// How many batches may wait, and how much one holds (items, or bytes of drafts).
    static let capacity = 4
    static let batchItems = 256
    static let batchBytes = 1 << 20

    private struct State {
        var waiting: [[Item]] = []
        /// The batch the reader is filling (only the reader touches it).
        var filling: [Item] = []
        var fillingBytes = 0
        var cancelled = false
        var result: Result<FeedDocument.Reader.Read, ToolError>?
    }

    private let state = Mutex(State())
    /// Free places for batches: the reader waits on it when the queue is full.
    private let places = DispatchSemaphore(value: FeedHandoff.capacity)
    /// A batch, or the end, is there: the caller waits on it.
    private let arrivals = DispatchSemaphore(value: 0)

    // MARK: - The reading thread

    func take(_ draft: FeedEntryDraft) { fill(.draft(draft), bytes: draft.byteCount) }

    /// A JSON Feed's entry, taken as it is: its id is checked against the ones before it on
    /// the caller's side (`FeedEntryAssembly.add(entry:)`), which renames a repeat.
    func take(_ entry: FeedEntry) throws(ToolError) -> Bool {
        fill(.entry(entry), bytes: 0)
        return true
    }

    private func fill(_ item: Item, bytes: Int) {
        let full = state.withLock { state -> [Item]? in
            state.filling.append(item)
            state.fillingBytes += bytes
            guard state.filling.count >= Self.batchItems || state.fillingBytes >= Self.batchBytes else { return nil }
            defer { state.filling = []; state.fillingBytes = 0 }
            return state.filling
        }
        if let full { send(full) }
    }

    private func send(_ batch: [Item]) {
        guard !state.withLock({ $0.cancelled }) else { return }
        places.wait()
        let sent = state.withLock { state -> Bool in
            guard !state.cancelled else { return false }
            state.waiting.append(batch)
            return true
        }
        if sent { arrivals.signal() } else { places.signal() }
    }

    /// The document is read: what is left goes, then its result, which ends the queue.
    func finish(_ result: Result<FeedDocument.Reader.Read, ToolError>) {
        let last = state.withLock { state in
            defer { state.filling = [] }
            return state.filling
        }
        if !last.isEmpty { send(last) }
        state.withLock { $0.result = result }
        arrivals.signal()
    }

    // MARK: - The caller's thread

    /// The next batch, in order; nil once the document is read (then `result` is set).
    func next() -> [Item]? {
        while true {
            arrivals.wait()
            // A signal may be left over from a batch `cancel` dropped: only the result ends.
            let (batch, ended) = state.withLock { state -> ([Item]?, Bool) in
                state.waiting.isEmpty ? (nil, state.result != nil) : (state.waiting.removeFirst(), false)
            }
            if let batch {
                places.signal()
                return batch
            }
            if ended { return nil }
        }
    }

    /// The document's result: set once `next` has returned nil.
    var result: Result<FeedDocument.Reader.Read, ToolError>? { state.withLock { $0.result } }

    /// The caller takes no more: the reader drops what it reads from now on (it still reads
    /// to the end, which `next` returning nil says).
    func cancel() {
        state.withLock {
            $0.cancelled = true
            $0.waiting = []
        }
        places.signal()
    }
}
