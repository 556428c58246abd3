/// A post a search found: what it shows, how good a match, which feed.
public struct SearchHit: Sendable, Equatable, Encodable {
    public let id: String
    public let title: String
    public let author: String
    /// A few words around the best match, the matched words between `marks`.
    public let snippet: String
    public let cached: Bool
    /// Which field `snippet` is from, when the search was asked to centre it (terminal only).
    public var field: String?
    /// How good a match it is: 0 with a word in the title, then the author, the summary,
    /// 3 in the body alone (hits of several indexes, one a feed, merge by it).
    public var rank = 3
    /// The subscribed feed the post is from, when the search covers every subscription.
    public var feed: String?
    /// The source the post is of (`ServerURL.folderName`).
    public var source = ""

    enum CodingKeys: String, CodingKey { case feed, id, title, author, snippet, cached }

    public init(id: String, title: String, author: String, snippet: String, cached: Bool) {
        self.id = id
        self.title = title
        self.author = author
        self.snippet = snippet
        self.cached = cached
    }
}
