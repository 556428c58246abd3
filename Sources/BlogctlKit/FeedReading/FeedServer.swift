import FoundationEssentials
import Synchronization
import ToolboxKit
import BlogctlEngines

/// A server that is a feed (RSS, Atom, JSON Feed), or a web page naming one, read as the blog
/// API is read: its entries are the posts. What kind a server is is learned from what it
/// sends (`FeedDocument.kind`: the content type, then the document), never from its URL's
/// spelling, and remembered in its cache folder (`feed.json`, with the validators for the
/// next conditional GET), so that a feed costs one request a run and, unchanged, a 304.
public final class FeedServer: Sendable {
    /// What is remembered of a server found to be a feed.
    struct State: Codable, Sendable, Equatable {
        /// The feed's own URL: the server's, or the one its page named.
        var feed: String
        var etag: String?
        var lastModified: String?
        /// The feed's own title, as last fetched.
        var title: String?
        /// The feed's site (its own link), as last fetched.
        var site: String?
    }

    /// What this run learned: nil until a request told; the feed as fetched, once.
    enum Known: Sendable {
        case api
        case feed(State, fetched: Fetched?)
    }

    /// A feed as fetched this run: its entries (the posts), and what was wrong with it, said once.
    struct Fetched: Sendable {
        /// The entries as read, not copied into posts: a post's metadata and tag are made
        /// when asked for (a copy of every entry would be held beside them at the peak).
        private(set) var posts: [FeedEntry]
        let url: String
        let problems: Int
        let firstProblem: String?
        let renamed: Int
        var said = false
        /// Whether the entries went into the library as the feed was read (`probe(listing:)`):
        /// `posts` then holds only the newest, for the cache.
        private(set) var isListed = false

        mutating func listed(newest: [FeedEntry]) {
            posts = newest
            isListed = true
        }

        init(_ feed: Feed, url: String) {
            posts = feed.entries
            self.url = url
            problems = feed.problems
            firstProblem = feed.firstProblem
            renamed = feed.renamed
        }
    }

    let api: APIClient
    let known = Mutex<Known?>(nil)
    /// Where the feed said, permanently (301, 308), it now lives, this run.
    let moved = Mutex<String?>(nil)
    /// The server's cache; nil when it cannot be used (the feed is then fetched each time).
    let cache: PostCache?
    /// The newest entries' bodies, kept in `cache` as the feed is listed.
    let bodies: FeedBodyKeeper

    /// Where what a feed's document had wrong is said.
    let warn: @Sendable (String) -> Void

    /// `environment` names the cache and the library (the process's own, but in tests).
    convenience init(api: APIClient, warn: @escaping @Sendable (String) -> Void, environment: [String: String] = Environment.current) {
        let source = (try? Library.standard(environment: environment).source(api.server)) ?? nil
        self.init(api: api, warn: warn, known: source, environment: environment)
    }

    /// `known`: what the library had of the server (nil: nothing), read by the caller.
    init(api: APIClient, warn: @escaping @Sendable (String) -> Void, known source: SourceRecord?,
         environment: [String: String] = Environment.current) {
        self.api = api
        self.warn = warn
        self.environment = environment
        cache = try? PostCache.standard(server: api.server, environment: environment)
        bodies = FeedBodyKeeper(cache: cache)
        atStart = source
        if let source, let state = Self.remembered(source, server: api.server) {
            known.withLock { $0 = .feed(state, fetched: nil) }
        }
    }

    /// What the library had of the server when this run began: read once.
    let atStart: SourceRecord?
    /// Where the configuration is read from (the ignore rules).
    let environment: [String: String]

    /// The feed state when the server is known to be a feed; nil when it is not, or not yet known.
    var state: State? {
        known.withLock { known in
            if case .feed(let state, _) = known { return state }
            return nil
        }
    }

    var isKnownAPI: Bool { known.withLock { if case .api = $0 { true } else { false } } }

    func learnedAPI() { known.withLock { if $0 == nil { $0 = .api } } }

    // MARK: - Finding the feed

    /// Asks the server's URL itself what it is, after the API's path failed: a feed, or a page
    /// naming one (the first it names, as newsboat's `-i` and browsers take it). nil: neither
    /// (it answered 404, or a document that is no feed), and the caller's error stands. Throws
    /// what the URL itself answered when that is the true error, not the API path's 404 the
    /// user never typed: a failed answer (a body over the limit, a timeout), a status other
    /// than 404 (500, 410), a damaged gzip body, or a feed that cannot be read (one its
    /// Content-Type or XML declaration says is a feed).
    /// `listing`: the caller wants the listing written (`writeListing`): a big feed is then
    /// written into the library as the probe reads it, never held, and not read twice.
    func probe(listing: Bool = false) async throws(ToolError) -> State? {
        let url = api.server.resource
        let response: APIClient.Response
        do {
            response = try await api.send(.GET, url, headers: Self.accept, spillFrom: FeedBody.spilledFrom)
        } catch {
            // A connection that failed says nothing of what the URL is (a kept-alive one the
            // server had closed, as like as not): the API's error stands.
            if case .unreachable = error { return nil }
            throw error
        }
        if response.status == 404 { return nil }
        guard (200..<300).contains(response.status) else {
            try check(response, url)
            return nil
        }
        // As `fetch`: what a move kept pending answered is not read as the feed.
        if let target = response.movedPermanently, let refused = SubscriptionListing.pendingMoveRefused(from: api.server, to: target) {
            throw refused
        }
        let read: Result<FeedDocument.Reader.Read, ToolError>
        var listed: [FeedEntry]?
        if listing, response.bodyCount >= FeedListing.streamedFrom, let cache {
            do throws(ToolError) {
                let (library, server) = try cache.library()
                let written = try await self.listing.write(response, url, into: library, server: server, maxItems: Settings.current.integer(.maxItems))
                read = .success(written.read)
                listed = written.newest
            } catch {
                read = .failure(error)
            }
        } else {
            read = try document(response, url)
        }
        switch read {
        case .success(.page(let page)):
            guard let link = try? FeedDiscovery.links(inHTML: page, url: response.redirectedTo ?? url).first else { return nil }
            return remember(State(feed: link.url), fetched: nil)
        case .success(.feed(let feed)):
            let state = State(feed: url, etag: response.header("ETag"), lastModified: response.header("Last-Modified"),
                              title: feed.title.isEmpty ? nil : feed.title, site: feed.link)
            var fetched = Fetched(feed, url: url)
            if let listed { fetched.listed(newest: listed) }
            return remember(state, fetched: fetched)
        case .failure(let error):
            if FeedDocument.claimsToBeAFeed(contentType: response.header("Content-Type"), head: response.bodyHead(64)) {
                throw error
            }
            return nil
        }
    }

    /// Keeps `state` for this run and in the library (failing to write it is no error: the
    /// next run asks without validators).
    func remember(_ state: State, fetched: Fetched?) -> State {
        known.withLock { $0 = .feed(state, fetched: fetched) }
        try? cache?.library().0.update(api.server) { source in
            source.kind = .feed
            source.feedURL = state.feed
            source.etag = state.etag
            source.lastModified = state.lastModified
            source.title = state.title
            // A feed without a link of its own keeps the site an import gave it.
            source.siteURL = state.site ?? source.siteURL
        }
        return state
    }

    static let accept = [("Accept", "application/rss+xml, application/atom+xml, application/feed+json, application/xml;q=0.9, text/xml;q=0.9, text/html;q=0.5, */*;q=0.1"),
                         ("Accept-Encoding", "gzip")]

    // MARK: - Reading it

    /// The feed's posts, fetched at most once a run. `conditional`: with the validators of the
    /// last fetch, so that an unchanged feed answers 304 (then nil: the caller has a copy).
    func posts(conditional: Bool, warn: (String) -> Void) async throws(ToolError) -> [FeedEntry]? {
        let current: Known? = known.withLock { $0 }
        guard case .feed(let state, let fetched) = current else { return nil }
        if let fetched {
            if !fetched.said {
                known.withLock { if case .feed(let state, var fetched?) = $0 { fetched.said = true; $0 = .feed(state, fetched: fetched) } }
                Self.describe(fetched, shown: Terminal.sanitizeField(shown(fetched.url)), warn: warn)
            }
            return fetched.posts
        }
        guard let (response, url) = try await fetch(state, conditional: conditional) else { return nil }
        var read = try document(response, url).get()
        // A page (a subscription to a blog's address): the first feed it names.
        if case .page(let page) = read {
            let link = try feedNamed(by: page, response, url)
            let named = try await fetchNamed(link)
            read = try document(named, link).get()
            return try finishRead(read, named, link, warn: warn)
        }
        return try finishRead(read, response, url, warn: warn)
    }

    /// `response` (from `url`) read as the feed: said, remembered for this run, and its posts.
    private func finishRead(_ read: FeedDocument.Reader.Read, _ response: APIClient.Response, _ url: String,
                            warn: (String) -> Void) throws(ToolError) -> [FeedEntry] {
        guard case .feed(let feed) = read else { throw .protocolViolation(url: shown(url), detail: "a web page, not a feed") }
        var fresh = Fetched(feed, url: url)
        fresh.said = true
        Self.describe(fresh, shown: Terminal.sanitizeField(shown(url)), warn: warn)
        _ = remember(State(feed: url, etag: response.header("ETag"), lastModified: response.header("Last-Modified"),
                           title: feed.title.isEmpty ? nil : feed.title, site: feed.link), fetched: fresh)
        return fresh.posts
    }

    /// The feed's answer to a GET (conditional: with the last fetch's validators); nil when it
    /// answered 304 to them, or moved where it is not followed without the user's word. A feed that answered 410 Gone is never asked again, whichever
    /// command opens it; one that fails is asked once (again only when no connection was made).
    func fetch(_ state: State, conditional: Bool) async throws(ToolError) -> (APIClient.Response, String)? {
        if atStart?.gone == true {
            throw .httpStatus(url: shown(state.feed), status: 410,
                              message: "Gone: the feed was taken down and is no longer asked; blogctl feeds remove removes it")
        }
        var headers = Self.accept
        if conditional {
            if let etag = state.etag { headers.append(("If-None-Match", etag)) }
            if let modified = state.lastModified { headers.append(("If-Modified-Since", modified)) }
        }
        var url = state.feed
        if let command = FeedCommand(server: api.server) {
            return try await command.document(limit: APIClient.maximumResponse(environment: environment), seconds: api.timeout) { feed throws(ToolError) in
                let response = try await api.send(.GET, feed, headers: Self.accept, retrying: .connection)
                try check(response, feed)
                return response
            }
        }
        let response = try await api.send(.GET, url, headers: headers, retrying: .connection, spillFrom: FeedBody.spilledFrom)
        if let target = response.movedPermanently {
            moved.withLock { $0 = target }
            // A move kept pending until the user follows it (`SubscriptionListing.pendingMove`: one
            // anyone on a plain-http path could forge) is no answer of this feed's: what came
            // from the new URL is not read as the feed, as if nothing changed.
            if let new = try? ServerURL(target, allowingQuery: true), SubscriptionListing.pendingMove(from: api.server, to: new) != nil {
                return nil
            }
            url = target
        }
        if response.status == 304, conditional { return nil }
        try check(response, url)
        return (response, url)
    }

    /// How messages name the feed's `url`: a command feed by its urls-file line.
    func shown(_ url: String) -> String { FeedCommand(server: api.server)?.line ?? api.server.url(url) }

    /// The feed a web page names (the first, as newsboat's `-i` and browsers take it).
    func feedNamed(by page: [UInt8], _ response: APIClient.Response, _ url: String) throws(ToolError) -> String {
        guard let link = try FeedDiscovery.links(inHTML: page, url: response.redirectedTo ?? url).first else {
            throw .protocolViolation(url: shown(url), detail: "a web page that names no feed")
        }
        return link.url
    }

    /// The feed a page named, fetched.
    func fetchNamed(_ link: String) async throws(ToolError) -> APIClient.Response {
        let response = try await api.send(.GET, link, headers: Self.accept, retrying: .connection, spillFrom: FeedBody.spilledFrom)
        try check(response, link)
        return response
    }

    /// The document in `response` (from `url`): `FeedBody.read`, its errors naming the URL.
    func document(_ response: APIClient.Response, _ url: String, sink: FeedEntrySink? = nil) throws(ToolError) -> Result<FeedDocument.Reader.Read, ToolError> {
        try FeedBody.read(response, url: url, shown: shown(url), sink: sink)
    }

    private func check(_ response: APIClient.Response, _ url: String) throws(ToolError) {
        if response.status == 410 { throw .httpStatus(url: api.server.url(url), status: 410, message: "Gone: the feed has been taken down") }
        try api.check(response, path: url, notFound: "the feed \(api.server.url(url))")
    }

    /// A subscription is a feed by intent: read as one from the first request, the API's paths
    /// never tried (its errors then name the feed, not `/post-metadata`).
    func assumeFeed() {
        known.withLock { if $0 == nil { $0 = .feed(State(feed: api.server.resource), fetched: nil) } }
    }

    /// What the library remembers of `server` as a feed, if anything. A subscription that
    /// answered 410 Gone is a feed that is no longer asked, whatever it was found to be.
    static func remembered(server: ServerURL, environment: [String: String] = Environment.current) -> State? {
        guard let source = try? Library.standard(environment: environment).source(server) else { return nil }
        return remembered(source, server: server)
    }

    /// The feed state in `source`, when it is a feed (or gone); its URL the server's when unknown.
    static func remembered(_ source: SourceRecord, server: ServerURL) -> State? {
        guard source.kind == .feed || source.gone else { return nil }
        return State(feed: source.feedURL ?? server.resource, etag: source.etag, lastModified: source.lastModified,
                     title: source.title, site: source.siteURL)
    }

    /// One warning for what libxml2 recovered from, one for repeated ids, each naming the feed.
    static func describe(_ fetched: Fetched, shown: String, warn: (String) -> Void) {
        if fetched.problems > 0 {
            warn("\(shown): ill-formed feed, read as far as it could be (\(fetched.problems) error\(fetched.problems == 1 ? "" : "s"); "
                + "first: \(Terminal.sanitizeField(fetched.firstProblem ?? "")))")
        }
        if fetched.renamed > 0 {
            warn("\(shown): \(fetched.renamed) entr\(fetched.renamed == 1 ? "y repeats" : "ies repeat") an earlier entry's id; "
                + "kept as ID~2, ID~3, … in the feed's order")
        }
    }

    /// Every post's metadata, each body kept in the cache (unchanged ones only marked as
    /// checked): `read`, `search` and the screen then find them, online or not. An unchanged
    /// feed (304) is the last listing saved, read only then (a changed feed of 100,000
    /// entries would hold both lists at once).
    func metadataList(warn: (String) -> Void) async throws(ToolError) -> [PostMetadata] {
        let hasSaved = atStart?.listedAt != nil
        if let posts = try await posts(conditional: hasSaved, warn: warn) {
            bodies.store(posts)
            return posts.map(\.metadata)
        }
        if hasSaved, let saved = (try? cache?.savedListing()) ?? nil { return saved }
        // A 304 to a conditional request, and no listing after all: ask again, in full.
        known.withLock { if case .feed(var state, _) = $0 { state.etag = nil; state.lastModified = nil; $0 = .feed(state, fetched: nil) } }
        return try await posts(conditional: false, warn: warn)?.map(\.metadata) ?? []
    }

    /// Post `postId` of the feed; its body goes to `writer` unless the copy tagged `etag` is
    /// still the feed's (then `notModified`).
    func post(_ postId: String, etag: String?, into writer: PostCache.BodyWriter) async throws(ToolError) -> BlogClient.Fetch {
        guard let posts = try await posts(conditional: etag != nil, warn: warn) else { return .notModified }
        // The entry asked for is stored once, by the caller's writer; the others here.
        bodies.store(posts.filter { !$0.id.utf8.elementsEqual(postId.utf8) })
        guard let post = posts.first(where: { $0.id.utf8.elementsEqual(postId.utf8) }) else {
            throw .notFound(what: "post \(Terminal.quote(postId))")
        }
        let tag = post.contentTag
        if let etag, etag == tag { return .notModified }
        post.body.utf8.withContiguousStorageIfAvailable { writer.write($0) }
        return .fetched(post.metadata, etag: tag)
    }

    /// Post `id` of the feed, fetched (or from this run's copy).
    func metadata(_ id: String) async throws(ToolError) -> PostMetadata {
        let posts = try await posts(conditional: false, warn: warn) ?? []
        guard let post = posts.first(where: { $0.id.utf8.elementsEqual(id.utf8) }) else {
            throw .notFound(what: "post \(Terminal.quote(id))")
        }
        return post.metadata
    }

    /// The size and tag of post `postId`'s body, as `HEAD /post` gives them for the API.
    func head(_ postId: String) async throws(ToolError) -> (size: Int?, etag: String?) {
        let posts = try await posts(conditional: false, warn: warn) ?? []
        guard let post = posts.first(where: { $0.id.utf8.elementsEqual(postId.utf8) }) else {
            throw .notFound(what: "post \(Terminal.quote(postId))")
        }
        return (post.body.utf8.count, post.contentTag)
    }
}
