import CoreKit

/// A feed's entries made from their drafts (`FeedEntryMaker`: plain text, absolute links,
/// dates; a repeated id given a number, `EntryCollector`) as each entry's end tag is read, in
/// document order, on the reading thread: the engine is single-threaded, and a refresh reads
/// its feeds side by side, one document to a task (`--jobs`).
package final class FeedEntryAssembly {
    private let maker: FeedEntryMaker
    /// The entries made, or the sink they went to when the caller holds none of them.
    private var collected: EntryCollector
    private var failure: ToolError?

    init(url: String, sink: FeedEntrySink? = nil) {
        maker = FeedEntryMaker(url: url)
        collected = EntryCollector(sink: sink)
    }

    /// The next entry's draft: made an entry, kept unless its id came before. The first entry
    /// that cannot be made is the parse's failure; the drafts after it are not made.
    func add(_ draft: FeedXMLParser.Draft) {
        guard failure == nil else { return }
        do {
            try collected.add(try maker.makeEntry(draft))
        } catch {
            failure = error
        }
    }

    /// The end of the document: what came of the drafts.
    func finish() -> (entries: [FeedEntry], renamed: Int, failure: ToolError?) {
        (collected.entries, collected.renamed, failure)
    }
}
