import FoundationEssentials
import CoreKit
import BlogctlEngines

/// A post's author as the blog API describes them; `image` is a path on the API's own host.
public struct Author: Codable, Sendable, Equatable {
    public var name: String
    public var image: String
    public var title: String

    public init(name: String, image: String, title: String) {
        self.name = name
        self.image = image
        self.title = title
    }
}

/// One entry of `GET /post-metadata`, or of a feed. `postId` names the post object, usually
/// equal to `id`.
public struct PostMetadata: Codable, Sendable, Equatable {
    public var id: String
    public var title: String
    /// nil when a feed gives no date that can be read: shown as unknown, never as a wrong date.
    public var publishDate: Date?
    public var postId: String
    public var summary: String
    public var author: Author
    /// A feed entry's page (its alternate link), absolute; the API gives none.
    public var link: String?
    /// The URL a feed entry's body's relative links are read against (its `xml:base`, else
    /// the feed's URL); nil for the API's posts, whose links are read against `/post/ID`.
    public var base: String?
    /// The name of the subscribed feed it came from, in a list of every subscription; nil otherwise.
    public var feed: String?
    /// A feed entry's files (a podcast's episode); nil when it carries none.
    public var enclosures: [Enclosure]?
    /// A feed entry's picture (a video's thumbnail, an episode's image), absolute.
    public var picture: String?

    public init(id: String, title: String, publishDate: Date?, postId: String, summary: String, author: Author,
                link: String? = nil, base: String? = nil, feed: String? = nil, enclosures: [Enclosure]? = nil, picture: String? = nil) {
        self.id = id
        self.title = title
        self.publishDate = publishDate
        self.postId = postId
        self.summary = summary
        self.author = author
        self.link = link
        self.base = base
        self.feed = feed
        self.enclosures = enclosures
        self.picture = picture
    }

    /// Both ids go into URLs and file names, encoded; only an id that cannot be represented
    /// at all (empty, NUL) is refused.
    public func validated(server: ServerURL) throws(ToolError) -> PostMetadata {
        for value in [id, postId] {
            do {
                _ = try ResourceID.validate(value, kind: "post id")
            } catch {
                throw .protocolViolation(url: server.url("/post-metadata"),
                                         detail: "unusable post id \(Terminal.quote(value))")
            }
        }
        return self
    }
}

/// One entry of `GET /post/:id`: the metadata and the HTML (or plain-text) body.
public struct Post: Codable, Sendable {
    public var id: String
    public var metadata: PostMetadata
    public var body: String

    public init(id: String, metadata: PostMetadata, body: String) {
        self.id = id
        self.metadata = metadata
        self.body = body
    }
}

extension PostMetadata: IdentifiedRecord {
    public var recordIDs: KeyValuePairs<String, String> { ["id": id, "postId": postId] }
}
