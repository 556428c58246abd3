import FoundationEssentials
import ToolboxKit
import BlogctlEngines

/// A feed's listing written into the library as the feed is read (`FeedServer.listing`):
/// what `list` and a refresh do, so that no feed's entries are ever all held at once (each
/// costs far more than its bytes: a feed of a million tiny items was gigabytes of entries).
struct FeedListing: Sendable {
    /// The feed read, as fetched and remembered.
    let source: FeedServer

    /// The body size from which a feed is written into the library as it is parsed, inside
    /// the listing's transaction. Below it the feed is parsed first and written after, so that
    /// a refresh's many small feeds parse on every core and hold the library a moment each.
    static let streamedFrom = 1 << 20

    /// The feed's listing written into the library (`Library.writeListing`), its newest
    /// bodies stored beside the caller (`settle`). false when it answered 304 to
    /// `conditional` and the library's copy stands. `each` sees every entry written, as it is
    /// (`prefetch` stores its body), in document order.
    func write(conditional: Bool, warn: (String) -> Void,
                      each: (@Sendable (FeedEntry) -> Void)? = nil) async throws(ToolError) -> Bool {
        guard let cache = source.cache else { throw .missing("no cache folder for \(source.api.server) to keep its listing in") }
        let (library, server) = try cache.library()
        let maxItems = Settings.current.integer(.maxItems)
        guard case .feed(let state, let fetched) = source.known.withLock({ $0 }) else { return false }
        // What the probe fetched this run is written, not asked again; unless the probe wrote
        // it already and kept only the newest, and `each` is to see every entry.
        if let fetched {
            if !fetched.said { FeedServer.describe(fetched, shown: Terminal.sanitizeField(source.shown(fetched.url)), warn: warn) }
            source.known.withLock { $0 = .feed(state, fetched: nil) }
            if !fetched.isListed {
                let ignored = source.ignoredEntries()
                _ = try library.writeListing(server, maxItems: maxItems, feed: true) { listing in
                    for entry in fetched.posts where !ignored(entry) {
                        if try listing.add(entry.metadata) { each?(entry) }
                    }
                    return true
                }
                if each == nil { source.bodies.storeBeside(fetched.posts) }
                return true
            }
            if each == nil {
                source.bodies.storeBeside(newest: fetched.posts)
                return true
            }
        }
        guard var (response, url) = try await source.fetch(state, conditional: conditional) else { return false }
        var written = try await write(response, url, into: library, server: server, maxItems: maxItems, each: each)
        // A page (a subscription to a blog's address): the first feed it names.
        if case .page(let page) = written.read {
            url = try source.feedNamed(by: page, response, url)
            response = try await source.fetchNamed(url)
            written = try await write(response, url, into: library, server: server, maxItems: maxItems, each: each)
        }
        guard case .feed(let feed) = written.read else { throw .protocolViolation(url: source.shown(url), detail: "a web page, not a feed") }
        FeedServer.describe(FeedServer.Fetched(feed, url: url), shown: Terminal.sanitizeField(source.shown(url)), warn: warn)
        _ = source.remember(FeedServer.State(feed: url, etag: response.header("ETag"), lastModified: response.header("Last-Modified"),
                           title: feed.title.isEmpty ? nil : feed.title, site: feed.link), fetched: nil)
        // `each` stores the bodies it wants itself (prefetch: every one not too large).
        if each == nil { source.bodies.storeBeside(newest: written.newest) }
        return true
    }

    /// The document in `response` read and, when it is a feed, written as the library's
    /// listing of `server`, with the newest entries for the cache. A page changes nothing.
    /// The listing is written on the library's queue (`Library.onQueue`).
    func write(_ response: APIClient.Response, _ url: String, into library: Library, server: ServerURL, maxItems: Int?,
               each: (@Sendable (FeedEntry) -> Void)? = nil) async throws(ToolError) -> (read: FeedDocument.Reader.Read, newest: [FeedEntry]) {
        guard response.bodyCount >= Self.streamedFrom else {
            let read = try source.document(response, url).get()
            guard case .feed(var feed) = read else { return (read, []) }
            let ignored = source.ignoredEntries()
            let entries = feed.entries.filter { !ignored($0) }
            _ = try await library.onQueue { () -> Result<Bool, ToolError> in
                Result { () throws(ToolError) in
                    try library.writeListing(server, maxItems: maxItems, feed: true) { listing in
                        for entry in entries where try listing.add(entry.metadata) { each?(entry) }
                        return true
                    }
                }
            }.get()
            feed.entries = []
            return (.feed(feed), FeedBodyKeeper.newest(entries))
        }
        return try await library.onQueue { () -> Result<(read: FeedDocument.Reader.Read, newest: [FeedEntry]), ToolError> in
            Result { () throws(ToolError) in try self.writeAsRead(response, url, into: library, server: server, maxItems: maxItems, each: each) }
        }.get()
    }

    /// `write` of a big feed: read and parsed on a thread of its own (`FeedHandoff`) while
    /// its entries are made and written here, inside the listing's transaction, each as it
    /// comes (`FeedListingSink`), none held but the newest: one feed's work on two cores.
    private func writeAsRead(_ response: APIClient.Response, _ url: String, into library: Library, server: ServerURL, maxItems: Int?,
                             each: (@Sendable (FeedEntry) -> Void)?) throws(ToolError) -> (read: FeedDocument.Reader.Read, newest: [FeedEntry]) {
        var read: FeedDocument.Reader.Read?
        var newest: [FeedEntry] = []
        _ = try library.writeListing(server, maxItems: maxItems, feed: true) { listing in
            let sink = FeedListingSink(listing, ignored: source.ignoredEntries(), each: each)
            read = try Self.readAside(response, url, shown: source.shown(url), into: sink).get()
            newest = sink.newest.sorted()
            guard case .feed = read else { return false }
            return true
        }
        guard let read else { throw .protocolViolation(url: source.shown(url), detail: "an empty document") }
        return (read, newest)
    }

    /// The document in `response` read on a `PosixThread`, its entries made from the drafts
    /// it hands over and given to `sink` on this thread, in document order. Returns when the
    /// reader is done, whatever happened on either side: the response is never read after.
    static func readAside(_ response: APIClient.Response, _ url: String, shown: String,
                          into sink: FeedEntrySink) -> Result<FeedDocument.Reader.Read, ToolError> {
        let handoff = FeedHandoff()
        PosixThread.start {
            handoff.finish(Result { () throws(ToolError) in try FeedBody.read(response, url: url, shown: shown, sink: handoff, drafts: handoff) }.flatMap { $0 })
        }
        let assembly = FeedEntryAssembly(url: FeedBody.documentURL(response, url), sink: sink)
        // Every batch is taken, up to the end: after a failure, dropped (and the reader told).
        func makeEntriesUntilTheEnd() -> Result<FeedDocument.Reader.Read, ToolError> {
            while true {
                switch handoff.next() {
                case .end(let result):
                    return result
                case .batch where assembly.hasFailed:
                    handoff.cancel()
                case .batch(let batch):
                    for item in batch {
                        switch item {
                        case .draft(let draft): assembly.add(draft)
                        case .entry(let entry): assembly.add(entry: entry)
                        }
                    }
                }
            }
        }
        let result = makeEntriesUntilTheEnd()
        let made = assembly.finish()
        if let failure = made.failure, case .success(.feed) = result { return .failure(failure) }
        return result.map { read in
            guard case .feed(var feed) = read else { return read }
            feed.renamed += made.renamed
            return .feed(feed)
        }
    }
}

/// A feed's entries on their way from its parse into the library: each written as it is
/// made, the newest `FeedBodyKeeper.keptAtList` held for their bodies to be cached.
final class FeedListingSink: FeedEntrySink {
    private let listing: ListingWriter
    private let ignored: (FeedEntry) -> Bool
    private let each: ((FeedEntry) -> Void)?
    private(set) var newest = NewestEntries(capacity: FeedBodyKeeper.keptAtList)

    init(_ listing: ListingWriter, ignored: @escaping (FeedEntry) -> Bool = { _ in false }, each: ((FeedEntry) -> Void)? = nil) {
        self.listing = listing
        self.ignored = ignored
        self.each = each
    }

    func take(_ entry: FeedEntry) throws(ToolError) -> Bool {
        // Taken and left out: an ignored entry is no repeat to be renamed.
        if ignored(entry) { return true }
        guard try listing.add(entry.metadata) else { return false }
        newest.offer(entry, position: listing.count - 1)
        each?(entry)
        return true
    }
}

extension FeedServer {
    /// This feed's listing, written into the library as it is read.
    var listing: FeedListing { FeedListing(source: self) }

    /// Whether an entry of this feed is left out at refresh (`IgnoredEntries`, newsboat's
    /// `ignore-article`): a test made once for the refresh.
    func ignoredEntries() -> (FeedEntry) -> Bool {
        guard let matcher = IgnoredEntries.standard(environment: environment, warn: warn).matcher(for: api.server.resource) else { return { _ in false } }
        let title = state?.title ?? "", url = api.server.description, now = Date()
        return { entry in matcher.matches(FilterSubject(post: entry.metadata, read: false, feedTitle: title, feedURL: url, now: now)) }
    }
}
