import FoundationEssentials
import Hummingbird
import NIOCore
import ToolboxKit

/// The blog API, served from `data/blog/`: `posts.json` (the metadata), `bodies/POSTID.html`,
/// `massive.json` (the metadata of the massive post, whose body is generated at start-up) and
/// `images/authors/*.jpg`. As the original mock server: 100 ms for each request, 2 s for the
/// whole `/post` list, and the massive post sent slowly, with Content-Length. Posts and
/// metadata carry an ETag; `If-None-Match` with a matching tag answers 304.
public struct BlogAPI: MockAPI {
    public let name = "blog"
    public let defaultFaults = FaultProfile(latency: LatencyRange(100, 100), failureRate: 0)

    struct Author: Codable { let name: String; let image: String; let title: String }
    struct Metadata: Codable {
        let id: String
        let title: String
        let publishDate: String
        let postId: String
        let summary: String
        let author: Author
    }
    struct Post: Codable { let id: String; let metadata: Metadata; let body: String }

    /// A response body ready to send, with its tag.
    struct Tagged: Sendable {
        let bytes: [UInt8]
        let etag: String
        init(_ bytes: [UInt8]) {
            self.bytes = bytes
            etag = Self.tag(bytes)
        }
        /// FNV-1a, 64 bits: enough to tell versions apart.
        static func tag(_ bytes: [UInt8]) -> String {
            "\"" + FNV1a.hash(bytes).hex + "\""
        }
    }

    let metadataList: Tagged
    let metadataByID: [String: Tagged]
    let posts: [String: Tagged]
    let massivePostID: String?
    /// The massive post's answer, generated in the background from start-up so that mockd
    /// listens at once; a request for it waits for the generation to end.
    let massive: Task<Tagged, Never>?
    let generated: [Metadata]
    let generatedPostSize: Int
    let images: [String: [UInt8]]
    /// Bytes per second for the massive post.
    let massiveRate: Int
    /// The same posts as RSS, Atom and JSON Feed, the page linking to them, generated feeds.
    let feeds: BlogFeeds

    public init(directory: String, massiveSize: Int = 8_000_000, massiveRate: Int = 2_000_000, generatedPosts: Int = 0,
                generatedPostSize: Int = 0, generatedFeeds: Int = 0, feedItems: Int = 20) throws {
        self.generatedPostSize = generatedPostSize
        func load<T: Decodable>(_ type: T.Type, _ path: String) throws -> T {
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            do { return try JSONCoding.decode(type, from: data) } catch {
                throw MockdDataError(path: path, problem: "not valid blog data: \(error.description)")
            }
        }
        var metadata = try load([Metadata].self, directory + "/posts.json")
        var posts: [String: Tagged] = [:]
        var entries: [BlogFeeds.Entry] = []
        for item in metadata {
            let path = directory + "/bodies/" + item.postId + ".html"
            guard let body = FileManager.default.contents(atPath: path) else {
                throw MockdDataError(path: path, problem: "missing body of post \(item.id)")
            }
            let post = Post(id: item.postId, metadata: item, body: String(decoding: body, as: UTF8.self))
            if let date = ISO8601.parse(item.publishDate) {
                entries.append(BlogFeeds.Entry(id: item.id, title: item.title, author: item.author.name, published: date,
                                               summary: item.summary, body: post.body))
            }
            posts[item.postId] = Tagged(Array(JSONCoding.encode(post)))
        }
        var massivePostID: String?
        var massive: Task<Tagged, Never>?
        let massivePath = directory + "/massive.json"
        if massiveSize > 0, FileManager.default.fileExists(atPath: massivePath) {
            let item = try load(Metadata.self, massivePath)
            massive = Task.detached {
                let post = Post(id: item.postId, metadata: item, body: MassivePost.html(size: massiveSize))
                return Tagged(Array(JSONCoding.encode(post)))
            }
            metadata.append(item)
            massivePostID = item.postId
        }
        let authors = Array(Set(metadata.map(\.author.name))).sorted().compactMap { name in metadata.first { $0.author.name == name }?.author }
        var generated: [Metadata] = []
        for number in 0..<max(0, generatedPosts) where !authors.isEmpty {
            let id = "gen-\(number + 1)"
            let day = 1_530_403_200 + number * 3_600 * 7  // from 2018-07-01, every 7 hours
            generated.append(Metadata(id: id, title: "Generated post \(number + 1)", publishDate: ISO8601.format(Date(timeIntervalSince1970: Double(day))),
                                      postId: id, summary: "Load-test post number \(number + 1).", author: authors[number % authors.count]))
        }
        metadata += generated
        self.metadataList = Tagged(Array(JSONCoding.encode(metadata)))
        var byID: [String: Tagged] = [:]
        for item in metadata { byID[item.id] = Tagged(Array(JSONCoding.encode(item))) }
        self.metadataByID = byID
        self.posts = posts
        self.massivePostID = massivePostID
        self.massive = massive
        self.generated = generated
        self.massiveRate = max(massiveRate, 1)
        feeds = BlogFeeds(entries: entries, generatedFeeds: generatedFeeds, itemsEach: feedItems)
        var images: [String: [UInt8]] = [:]
        let imageFolder = directory + "/images/authors"
        for file in (try? FileManager.default.contentsOfDirectory(atPath: imageFolder)) ?? [] {
            images[file] = Array(FileManager.default.contents(atPath: imageFolder + "/" + file) ?? Data())
        }
        self.images = images
    }

    /// The answer for post `id`: from the data, the massive post, or a generated one.
    func postAnswer(_ id: String) async -> Tagged? {
        if let item = posts[id] { return item }
        if id == massivePostID, let massive { return await massive.value }
        return generatedPost(id)
    }

    /// A generated post's body, made when asked for.
    func generatedPost(_ id: String) -> Tagged? {
        guard id.hasPrefix("gen-"), let number = Int(id.dropFirst(4)), number >= 1, number <= generated.count else { return nil }
        let item = generated[number - 1]
        var body = "<p>\(item.summary)</p>\n<p>Written by <em>\(item.author.name)</em> for load tests.</p>\n"
        if generatedPostSize > body.utf8.count { body += Self.prose(seed: UInt64(number), bytes: generatedPostSize - body.utf8.count) }
        return Tagged(Array(JSONCoding.encode(Post(id: id, metadata: item, body: body))))
    }

    static let vocabulary = ("algorithm abstraction assembler binary compiler computation correctness data debugging "
        + "design discipline engineering error function hardware invariant iteration language logic machine memory "
        + "method module notation number operation parallel pointer procedure program proof recursion register "
        + "reliability semantics sequence software specification stack structure symbol syntax system testing theorem "
        + "type variable verification").split(separator: " ").map(String.init)

    /// Paragraphs of seeded words, at least `bytes` long: every post's own text, so that
    /// searches and compression see something like prose.
    static func prose(seed: UInt64, bytes: Int) -> String {
        var generator = SeededGenerator(seed: seed &+ 0x5EED)
        var text = ""
        text.reserveCapacity(bytes + 200)
        while text.utf8.count < bytes {
            text += "<p>"
            for index in 0..<(40 + Int(generator.next() % 40)) {
                let word = vocabulary[Int(generator.next() % UInt64(vocabulary.count))]
                text += index == 0 ? word.prefix(1).uppercased() + word.dropFirst() : " " + word
            }
            text += ".</p>\n"
        }
        return text
    }

    public func register(on router: Router<BasicRequestContext>, faults: FaultMiddleware<BasicRequestContext>) {
        let metadata = router.group("/post-metadata").add(middleware: faults)
        metadata.get { request, _ in Self.answer(metadataList, request) }
        metadata.get(":id") { request, context in
            let id = context.parameters.decoded("id")
            guard let item = metadataByID[id] else { return Response.jsonError("no post with id \(id)", status: .notFound) }
            return Self.answer(item, request)
        }
        let post = router.group("/post").add(middleware: faults)
        let profile = faults.profile
        let injector = faults.injector
        post.get { _, _ in
            // The whole list took 2 s on the original server: 19 more of the per-request delay.
            let extra = injector.decide(FaultProfile(latency: profile.latency)).delayMilliseconds * 19
            try await Task.sleep(for: .milliseconds(extra))
            var bytes: [UInt8] = [UInt8(ascii: "[")]
            let ids = metadataByID.keys.sorted()
            var first = true
            for id in ids {
                guard let item = await postAnswer(id) else { continue }
                if !first { bytes.append(UInt8(ascii: ",")) }
                bytes += item.bytes
                first = false
            }
            bytes.append(UInt8(ascii: "]"))
            return Response.json(bytes)
        }
        post.get(":id") { request, context in await postResponse(request, context, head: false) }
        post.head(":id") { request, context in await postResponse(request, context, head: true) }
        let feedRoutes = router.group().add(middleware: faults)
        for (path, document) in [("/feed.rss", feeds.rss), ("/feed.atom", feeds.atom), ("/feed.json", feeds.json),
                                 ("/blog", Lazily(feeds.page)), ("/feeds.opml", Lazily(feeds.opml))] {
            feedRoutes.get(RouterPath(path)) { request, _ in Self.answer(document.value, request) }
        }
        feedRoutes.get("/feeds/:file") { request, context in
            let file = context.parameters.decoded("file")
            guard file.hasSuffix(".xml"), let number = Int(file.dropLast(4)), number >= 1, number <= feeds.generated.count else {
                return Response.jsonError("no feed \(file)", status: .notFound)
            }
            return Self.answer(feeds.generated[number - 1].value, request)
        }
        router.get("/images/authors/:file") { _, context in
            let file = context.parameters.get("file") ?? ""
            guard let image = images[file] else { return Response.jsonError("no image \(file)", status: .notFound) }
            return Response(status: .ok, headers: [.contentType: "image/jpeg"], body: .init(byteBuffer: ByteBuffer(bytes: image)))
        }
    }

    private func postResponse(_ request: Request, _ context: BasicRequestContext, head: Bool) async -> Response {
        let id = context.parameters.decoded("id")
        guard let item = await postAnswer(id) else { return Response.jsonError("no post with id \(id)", status: .notFound) }
        if head || Self.matches(request, item.etag) {
            if Self.matches(request, item.etag) { return Self.notModified(item) }
            return Response(status: .ok,
                            headers: [.contentType: "application/json", .eTag: item.etag, .contentLength: String(item.bytes.count)],
                            body: ResponseBody(contentLength: item.bytes.count) { writer in try await writer.finish(nil) })
        }
        guard id == massivePostID else { return Self.answer(item, request) }
        // Slowly, in 64 kB pieces, so that a progress bar has something to show.
        let rate = massiveRate
        let bytes = item.bytes
        let body = ResponseBody(contentLength: bytes.count) { writer in
            let piece = 64 * 1024
            var offset = 0
            let start = ContinuousClock.now
            while offset < bytes.count {
                let end = min(offset + piece, bytes.count)
                try await writer.write(ByteBuffer(bytes: bytes[offset..<end]))
                offset = end
                let due = start + .milliseconds(Int64(Double(offset) / Double(rate) * 1000))
                try await Task.sleep(until: due, clock: .continuous)
            }
            try await writer.finish(nil)
        }
        return Response(status: .ok, headers: [.contentType: "application/json", .eTag: item.etag], body: body)
    }

    static func answer(_ item: Tagged, _ request: Request) -> Response {
        if matches(request, item.etag) { return notModified(item) }
        var response = Response.json(item.bytes)
        response.headers[.eTag] = item.etag
        return response
    }

    /// A feed or page, conditional on its ETag (If-None-Match) or its date (If-Modified-Since,
    /// compared as text, as the date is the one this document was served with).
    static func answer(_ document: BlogFeeds.Document, _ request: Request) -> Response {
        let tagged = document.tagged
        if matches(request, tagged.etag) || (request.headers[.ifNoneMatch] == nil && request.headers[.ifModifiedSince] == document.lastModified) {
            return Response(status: .notModified, headers: [.eTag: tagged.etag, .lastModified: document.lastModified])
        }
        var headers: HTTPFields = [.contentType: document.contentType, .eTag: tagged.etag, .lastModified: document.lastModified,
                                   .vary: "Accept-Encoding"]
        guard acceptsGzip(request) else { return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: tagged.bytes))) }
        headers[.contentEncoding] = "gzip"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: document.gzipped)))
    }

    /// `Accept-Encoding` names gzip (or `*`) with a weight above 0 (`q=0`, `q=0.0`: not
    /// acceptable, RFC 9110 12.4.2). Read by bytes: a header is ASCII, and a byte that is not
    /// only fails to match.
    static func acceptsGzip(_ request: Request) -> Bool {
        guard let header = request.headers[.acceptEncoding] else { return false }
        return acceptsGzip(header)
    }

    static func acceptsGzip(_ header: String) -> Bool {
        let blanks: Set<UInt8> = [0x20, 0x09]
        func trimmed(_ part: ArraySlice<UInt8>) -> [UInt8] {
            // ASCII lower case, byte by byte: a coding's name and its parameter are ASCII.
            part.drop { blanks.contains($0) }.reversed().drop { blanks.contains($0) }.reversed().map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }
        }
        return Array(header.utf8).split(separator: UInt8(ascii: ",")).contains { item in
            let parts = item.split(separator: UInt8(ascii: ";")).map(trimmed)
            guard let coding = parts.first, [Array("gzip".utf8), Array("x-gzip".utf8), [UInt8(ascii: "*")]].contains(coding) else { return false }
            let weight = parts.dropFirst().first { $0.starts(with: "q=".utf8) }.map { Double(String(decoding: $0.dropFirst(2), as: UTF8.self)) ?? 0 } ?? 1
            return weight > 0
        }
    }

    static func notModified(_ item: Tagged) -> Response {
        Response(status: .notModified, headers: [.eTag: item.etag])
    }

    /// `If-None-Match`: a list of tags (weak ones compared weakly) or `*`.
    static func matches(_ request: Request, _ etag: String) -> Bool {
        guard let header = request.headers[.ifNoneMatch] else { return false }
        return header.split(separator: ",").contains { candidate in
            var tag = candidate.trimmingCharacters(in: " ")
            if tag == "*" { return true }
            if tag.hasPrefix("W/") { tag = tag.dropFirst(2) }
            return tag == etag
        }
    }
}
