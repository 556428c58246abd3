/// One row of the feed list (`FeedList`): a subscription and what the library knows of it.
public struct FeedRow: Sendable, Equatable {
    public var name: String
    /// The subscription's URL, as the urls file has it: the server its entries are read from.
    public var url: String
    public var entries: Int
    public var unread: Int
    public var error: String?
    /// Its tags in the urls file (`t` shows the feeds of one).
    public var tags: [String]

    /// A query feed of the urls file (`query:NAME`): its entries are other feeds'.
    var queryName: String? {
        url.utf8.starts(with: "query:".utf8) ? String(decoding: url.utf8.dropFirst(6), as: UTF8.self) : nil
    }

    public init(name: String, url: String, entries: Int, unread: Int, error: String? = nil, tags: [String] = []) {
        self.name = name
        self.url = url
        self.entries = entries
        self.unread = unread
        self.error = error
        self.tags = tags
    }
}
