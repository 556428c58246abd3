import Dispatch
import CoreKit

/// A feed's entries made from their drafts (`FeedEntryMaker`: plain text, absolute
/// links, dates; a repeated id given a number, `EntryCollector`) on a serial queue of their own, in document order,
/// while the reading thread goes on with libxml2: the two halves of a parse on two cores.
/// At most `inFlight` batches wait for the queue, so a reader that runs ahead holds a few
/// hundred drafts, never the feed.
///
/// Confinement, not locks: `pending` belongs to the reading thread; `maker` and the results
/// to the queue, until `finish` has waited for it (`queue.sync`), after which they are read.
final class FeedEntryAssembly: @unchecked Sendable {
    static let batch = 256
    static let inFlight = 8

    private let queue = DispatchQueue(label: "blogctl.feed-entries")
    private let room = DispatchSemaphore(value: inFlight)
    /// A maker of its own: its base cache is the queue's alone.
    private let maker: FeedEntryMaker
    private var pending: [FeedXMLParser.Draft] = []
    /// The entries made, or the sink they went to when the caller holds none of them.
    private var collected: EntryCollector
    private var failure: ToolError?

    init(url: String, sink: FeedEntrySink? = nil) {
        maker = FeedEntryMaker(url: url)
        collected = EntryCollector(sink: sink)
    }

    /// The next entry's draft, from the reading thread.
    func add(_ draft: FeedXMLParser.Draft) {
        pending.append(draft)
        if pending.count >= Self.batch { handOver() }
    }

    private func handOver() {
        let drafts = pending
        pending = []
        pending.reserveCapacity(Self.batch)
        room.wait()
        queue.async {
            self.make(drafts)
            self.room.signal()
        }
    }

    /// On the queue: each draft made an entry, kept unless its id came before. The first
    /// entry that cannot be made is the parse's failure.
    private func make(_ drafts: [FeedXMLParser.Draft]) {
        guard failure == nil else { return }
        for draft in drafts {
            do {
                try collected.add(try maker.makeEntry(draft))
            } catch {
                failure = error
                return
            }
        }
    }

    /// The end of the document, from the reading thread: every draft made, and what came of them.
    func finish() -> (entries: [FeedEntry], renamed: Int, failure: ToolError?) {
        if !pending.isEmpty { handOver() }
        return queue.sync { (collected.entries, collected.renamed, failure) }
    }
}
