import Synchronization
import ToolboxKit
import BlogctlEngines

/// A big feed's document read on a thread of its own while its entries are made and written
/// on the caller's: the reading thread hands over what it reads (an XML feed's drafts, a JSON
/// Feed's entries) in batches, in document order, through a bounded queue (`HandoffQueue`),
/// and the document's result last. Each side is single-threaded; only the queue is shared.
/// The reader waits while `capacity` batches wait (memory stays bounded), the caller until a
/// batch or the end comes. Neither is a task: the reader is a `PosixThread`, the caller the
/// library's queue.
final class FeedHandoff: FeedDraftSink, FeedEntrySink, Sendable {
    enum Item: Sendable {
        case draft(FeedEntryDraft)
        case entry(FeedEntry)
    }

    enum Message: Sendable {
        case batch([Item])
        case end(Result<FeedDocument.Reader.Read, ToolError>)
    }

    /// How many batches may wait, and how much one holds (items, or bytes of drafts).
    static let capacity = 4
    static let batchItems = 256
    static let batchBytes = 1 << 20

    private let queue = HandoffQueue<Message>(capacity: FeedHandoff.capacity)
    /// The batch being filled: the reading thread's alone.
    private let filling = Mutex<(items: [Item], bytes: Int)>(([], 0))

    // MARK: - The reading thread

    func take(_ draft: FeedEntryDraft) { fill(.draft(draft), bytes: draft.byteCount) }

    /// A JSON Feed's entry, taken as it is: its id is checked against the ones before it on
    /// the caller's side (`FeedEntryAssembly.add(entry:)`), which renames a repeat.
    func take(_ entry: FeedEntry) throws(ToolError) -> Bool {
        fill(.entry(entry), bytes: entry.body.utf8.count + entry.summary.utf8.count)
        return true
    }

    private func fill(_ item: Item, bytes: Int) {
        let full = filling.withLock { batch -> [Item]? in
            batch.items.append(item)
            batch.bytes += bytes
            guard batch.items.count >= Self.batchItems || batch.bytes >= Self.batchBytes else { return nil }
            defer { batch = ([], 0) }
            return batch.items
        }
        if let full { queue.put(.batch(full)) }
    }

    /// The document is read: what is left goes, then its result, which ends the queue.
    func finish(_ result: Result<FeedDocument.Reader.Read, ToolError>) {
        let last = filling.withLock { batch in
            defer { batch = ([], 0) }
            return batch.items
        }
        if !last.isEmpty { queue.put(.batch(last)) }
        queue.put(.end(result), always: true)
    }

    // MARK: - The caller's thread

    /// The next message, in order; `.end` is the last.
    func next() -> Message { queue.take() }

    /// The caller takes no more: the reader drops what it reads from now on (it still reads
    /// to the end, which `.end` says).
    func cancel() { queue.cancel() }
}
