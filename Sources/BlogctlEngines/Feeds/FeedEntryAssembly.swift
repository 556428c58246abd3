import CoreKit

/// A feed's entries made from their drafts (`FeedEntryMaker`: plain text, absolute links,
/// dates; a repeated id given a number, `EntryCollector`) as each entry's end tag is read, in
/// document order, on the reading thread: the engine is single-threaded, and a refresh reads
/// its feeds side by side, one document to a task (`--jobs`). A caller that reads a big feed
/// on a thread of its own takes the drafts there (`FeedDraftSink`) and makes them here, on
/// its own thread, in the same order.
package final class FeedEntryAssembly {
    private let maker: FeedEntryMaker
    /// The entries made, or the sink they went to when the caller holds none of them.
    private var collected: EntryCollector
    private var failure: ToolError?

    package init(url: String, sink: FeedEntrySink? = nil) {
        maker = FeedEntryMaker(url: url)
        collected = EntryCollector(sink: sink)
    }

    /// The next entry's draft: made an entry, kept unless its id came before. The first entry
    /// that cannot be made is the parse's failure; the drafts after it are not made.
    package func add(_ draft: FeedXMLParser.Draft) {
        guard failure == nil else { return }
        do {
            try collected.add(try maker.makeEntry(draft))
        } catch {
            failure = error
        }
    }

    /// An entry made already (a JSON Feed's, read on another thread without renaming
    /// repeats): kept unless its id came before, as a draft's entry is.
    package func add(entry: FeedEntry) {
        guard failure == nil else { return }
        do { try collected.add(entry) } catch { failure = error }
    }

    /// Whether an entry could not be made or taken: the rest are not.
    package var hasFailed: Bool { failure != nil }

    /// The end of the document: what came of the drafts.
    package func finish() -> (entries: [FeedEntry], renamed: Int, failure: ToolError?) {
        (collected.entries, collected.renamed, failure)
    }
}

/// Where a feed's drafts go, in document order, when the caller makes the entries itself
/// (`FeedEntryAssembly`, on a thread of the caller's): the engine only reads and drafts.
package protocol FeedDraftSink: AnyObject {
    func take(_ draft: FeedEntryDraft)
}
