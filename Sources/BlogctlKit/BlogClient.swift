import FoundationEssentials
import ToolboxKit
import BlogctlEngines

/// The blog API over the toolbox's `APIClient`: every id checked before it goes into a path.
/// A server that is not the API but a feed, or a page naming one, is read as one
/// (`FeedServer`): each method asks the feed instead.
public struct BlogClient: Sendable {
    public let api: APIClient
    let feeds: FeedServer
    /// The largest answer to `GET /post/:id` read (its body is capped by the cache's
    /// `largestBody`; the JSON's escapes make the answer longer than the body).
    public static let largestAnswer = 2 << 30

    /// `warn` hears what a feed's document had wrong, once a run (stderr; a screen passes its
    /// own, since nothing may write to the terminal under it).
    /// `environment` names the cache and the library.
    public init(api: APIClient, warn: @escaping @Sendable (String) -> Void = { Tool.blogctl.warn($0) },
                environment: [String: String] = Environment.current) {
        self.api = api
        feeds = FeedServer(api: api, warn: warn, environment: environment)
    }

    /// A client for a refresh of many feeds: `known` is what the library has of the server
    /// (nil: nothing), read with every other feed's in one query, not again here.
    init(api: APIClient, warn: @escaping @Sendable (String) -> Void, known: SourceRecord?) {
        self.api = api
        feeds = FeedServer(api: api, warn: warn, known: known)
    }

    /// Whether the server was found to be a feed (this run, or remembered from an earlier one).
    public var isFeed: Bool { feeds.state != nil }

    /// The feed's own URL (the server's, or the one its page named), when the server is a feed.
    public var feedURL: String? { feeds.state?.feed }

    /// The feed's own title, when the server is a feed that gives one.
    public var feedTitle: String? { feeds.state?.title }

    /// Where the feed said, with a permanent redirect, it now lives (this run); nil when it did not.
    public var feedMovedTo: String? { feeds.moved.withLock { $0 } }

    /// Reads the server as a feed from the start: a subscription is one by intent.
    public func assumeFeed() { feeds.assumeFeed() }

    /// Runs `request` on the API; when the API's path is missing there, or what came back is
    /// not the API's JSON, and the server's URL turns out to be a feed, `instead` reads the feed.
    func either<T>(_ request: () async throws(ToolError) -> T, instead: () async throws(ToolError) -> T) async throws(ToolError) -> T {
        if feeds.state != nil { return try await instead() }
        do {
            let result = try await request()
            feeds.learnedAPI()
            return result
        } catch {
            guard !feeds.isKnownAPI, Self.mayBeAFeed(error), try await feeds.probe() != nil else { throw error }
            return try await instead()
        }
    }

    /// The errors the API's paths give on a server that is something else.
    static func mayBeAFeed(_ error: ToolError) -> Bool {
        switch error {
        case .notTheAPI, .notFound, .protocolViolation: return true
        case .httpStatus(_, let status, _): return [400, 404, 405, 406, 410].contains(status)
        default: return false
        }
    }

    public var server: ServerURL { api.server }

    /// `GET /post-metadata`: every post's summary. Never touches `/post`. A record that does
    /// not decode, or whose ids cannot be used, is left out and described to `warn`.
    public func metadataList(warn: (String) -> Void = { _ in }) async throws(ToolError) -> [PostMetadata] {
        try await either { () async throws(ToolError) in try await apiMetadataList(warn: warn) }
            instead: { () async throws(ToolError) in try await feeds.metadataList(warn: warn) }
    }

    /// The server's listing written into the library, whence `list` and a refresh read it: a
    /// feed's as it is parsed (a big feed's entries are never held together), the API's as it
    /// comes. false when the feed answered 304 to the last fetch's validators and the library's
    /// copy stands. A feed's newest bodies are stored beside the caller, who calls `settle`.
    public func writeListing(warn: @escaping (String) -> Void = { _ in }) async throws(ToolError) -> Bool {
        if let posts = try await apiListingUnlessAFeed(warn: warn) {
            guard let cache = feeds.cache else { throw .missing("no cache folder for \(server) to keep its listing in") }
            try cache.saveListing(posts)
            return true
        }
        return try await feeds.listing.write(conditional: feeds.atStart?.listedAt != nil, warn: warn)
    }

    /// What `prefetch` reads: the API's listing, each body then asked for; or nil for a feed,
    /// fetched once and written into the library as it is read, `each` seeing every entry
    /// with its body.
    func prefetchListing(warn: (String) -> Void, each: @escaping @Sendable (FeedEntry) -> Void) async throws(ToolError) -> [PostMetadata]? {
        if let posts = try await apiListingUnlessAFeed(warn: warn) { return posts }
        _ = try await feeds.listing.write(conditional: false, warn: warn, each: each)
        await feeds.bodies.settle()
        return nil
    }

    /// The API's listing; nil when the server is a feed (known, or found by a probe that
    /// writes a big feed's listing as it reads it, as `either` would, holding none of it).
    private func apiListingUnlessAFeed(warn: (String) -> Void) async throws(ToolError) -> [PostMetadata]? {
        guard feeds.state == nil else { return nil }
        do {
            let posts = try await apiMetadataList(warn: warn)
            feeds.learnedAPI()
            return posts
        } catch {
            // A host out of reach is so whatever the path: said of the URL the user named
            // (a feed's), not of the API path tried first, which they never typed.
            if !feeds.isKnownAPI, case .unreachable(_, let reason) = error { throw .unreachable(url: server.resource, reason: reason) }
            guard !feeds.isKnownAPI, Self.mayBeAFeed(error), try await feeds.probe(listing: true) != nil else { throw error }
            return nil
        }
    }

    /// Waits for the bodies `writeListing` is still storing.
    public func settle() async { await feeds.bodies.settle() }

    func apiMetadataList(warn: (String) -> Void) async throws(ToolError) -> [PostMetadata] {
        let list = try await api.getList("/post-metadata", as: PostMetadata.self, fast: PostListDecoder.decode)
        for skipped in list.skipped { warn("skipped post \(skipped)") }
        var checked: [PostMetadata] = []
        checked.reserveCapacity(list.records.count)
        for metadata in list.records {
            do { checked.append(try metadata.validated(server: server)) } catch { warn("skipped post: \(error.message)") }
        }
        return checked
    }

    /// `GET /post-metadata/:id`
    public func metadata(_ id: String) async throws(ToolError) -> PostMetadata {
        let id = try ResourceID.validate(id, kind: "post id")
        return try await either { () async throws(ToolError) in try await apiMetadata(id) }
            instead: { () async throws(ToolError) in try await feeds.metadata(id) }
    }

    func apiMetadata(_ id: String) async throws(ToolError) -> PostMetadata {
        try await api.getJSON("/post-metadata/" + ResourceID.pathSegment(id), as: PostMetadata.self, notFound: "post \(Terminal.quote(id))")
            .validated(server: server)
    }

    /// What a conditional `GET /post/:id` answered.
    public enum Fetch: Sendable {
        case notModified
        /// The post's metadata; its body went to the writer.
        case fetched(PostMetadata, etag: String?)
    }

    /// `GET /post/:postId`, with `If-None-Match` when a cached copy has a tag; the body is
    /// decoded from the JSON as it arrives (`PostStream`) straight into `writer`, never held,
    /// whatever its size; `progress` sees bytes and the total once known.
    public func post(_ postId: String, etag: String?, into writer: PostCache.BodyWriter,
                     progress: (@Sendable (Int64, Int64?) -> Void)? = nil) async throws(ToolError) -> Fetch {
        let postId = try ResourceID.validate(postId, kind: "post id")
        return try await either { () async throws(ToolError) in try await apiPost(postId, etag: etag, into: writer, progress: progress) }
            instead: { () async throws(ToolError) in
                writer.restart()
                return try await feeds.post(postId, etag: etag, into: writer)
            }
    }

    func apiPost(_ postId: String, etag: String?, into writer: PostCache.BodyWriter,
                 progress: (@Sendable (Int64, Int64?) -> Void)?) async throws(ToolError) -> Fetch {
        let path = "/post/" + ResourceID.pathSegment(postId)
        var headers = [("Accept", "application/json")]
        if let etag { headers.append(("If-None-Match", etag)) }
        var parser = PostStream { writer.write($0) }
        let url = server.url(path)
        // With progress shown, a minimum rate ends a trickle; without, the whole download
        // ends within --timeout.
        let response = try await api.download.stream(.GET, path, headers: headers, maxBytes: Self.largestAnswer,
                                            pace: progress == nil ? .whole : .minimumRate,
                                            progress: { progress?($0, $1) },
                                            restart: { writer.restart(); parser = PostStream { writer.write($0) } },
                                            consume: { raw in
            do throws(PostStream.Failure) {
                try parser.feed(raw.assumingMemoryBound(to: UInt8.self))
            } catch {
                throw ToolError.protocolViolation(url: url, detail: error.detail)
            }
            if writer.count > PostCache.largestBody {
                throw ToolError.protocolViolation(url: url, detail: "a body larger than \(PostCache.largestBody >> 20) MiB")
            }
        })
        if response.status == 304 { return .notModified }
        try api.check(response, path: path, notFound: "post \(Terminal.quote(postId))")
        do throws(PostStream.Failure) { try parser.finish() } catch {
            throw .protocolViolation(url: url, detail: error.detail)
        }
        guard let raw = parser.members["metadata"] else { throw .protocolViolation(url: url, detail: "no \"metadata\" member") }
        let metadata: PostMetadata
        do { metadata = try JSONCoding.decode(PostMetadata.self, from: Data(raw)) } catch {
            throw .protocolViolation(url: url, detail: error.path.isEmpty ? "metadata: " + error.problem : "metadata." + error.description)
        }
        _ = try metadata.validated(server: server)
        return .fetched(metadata, etag: response.header("ETag"))
    }

    /// `HEAD /post/:postId`: the size of the answer and its tag, without the body.
    public func postHead(_ postId: String) async throws(ToolError) -> (size: Int?, etag: String?) {
        let postId = try ResourceID.validate(postId, kind: "post id")
        return try await either { () async throws(ToolError) in
            let path = "/post/" + ResourceID.pathSegment(postId)
            let response = try await api.send(.HEAD, path)
            try api.check(response, path: path, notFound: "post \(Terminal.quote(postId))")
            return (response.header("Content-Length").flatMap { Int($0) }, response.header("ETag"))
        } instead: { () async throws(ToolError) in try await feeds.head(postId) }
    }

    /// The author's image URL: `image` is a path on the API's host; a full URL is accepted
    /// only when it points there too.
    public func imagePath(_ metadata: PostMetadata) throws(ToolError) -> String {
        if metadata.author.image.isEmpty { throw .missing("post \(Terminal.quote(metadata.id)) names no author image") }
        var image = metadata.author.image
        if image.hasPrefix(server.base) { image = String(image.dropFirst(server.base.count)) }
        let segments = image.split(separator: "/", omittingEmptySubsequences: false)
        guard image.hasPrefix("/"), !segments.contains(".."), !segments.contains("."),
              image.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\\") })
        else {
            throw .protocolViolation(url: server.url("/post-metadata/" + ResourceID.pathSegment(metadata.id)),
                                     detail: "author image \"\(Terminal.sanitizeField(metadata.author.image))\" is not a path on this server")
        }
        return image
    }

    /// Downloads the author's image of post `id`.
    public func avatar(_ metadata: PostMetadata) async throws(ToolError) -> [UInt8] {
        let path = try imagePath(metadata)
        let response = try await api.send(.GET, path, maxBytes: 32 << 20)
        try api.check(response, path: path, notFound: "image \(server.url(path))")
        return response.bytes
    }
}
