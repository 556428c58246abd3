#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import ToolboxKit

/// The last listing the server gave (`listing.tsv`, beside the `posts` folder; `ListingFile`):
/// what `blogctl ui` opens with at once, and all it has when the server cannot be reached.
/// `list` and `ui` write it each time the server answers; it is only ever a copy.
extension PostCache {
    public var listingPath: String {
        let parent = directory.lastIndex(of: "/").map { String(directory[..<$0]) } ?? "."
        return parent + "/listing.tsv"
    }

    /// Keeps `posts` as the last listing, atomically, in the private cache folder.
    public func saveListing(_ posts: [PostMetadata]) throws(ToolError) {
        let parent = String(listingPath.dropLast("/listing.tsv".count))
        try LocalFile.privateDirectory(parent)
        // Written as it is encoded, atomically: a long listing is never whole in memory.
        let (fd, temporary) = try LocalFile.createTemporary(for: listingPath)
        var failure: Int32 = 0
        ListingFile.encode(posts) { piece in if failure == 0 { failure = LocalFile.writeAll(fd, piece) } }
        try LocalFile.commitTemporary(fd, temporary, to: listingPath, mode: 0o600, failure: failure)
        // The ids alone, one a line, for the shell's Tab: decoding 10,000 posts' metadata
        // would take longer than a completion may.
        // By bytes: "\r\n" is one Character, which neither "\n" nor "\r" matches. Into one
        // buffer: no list of 100,000 ids made, filtered and joined first.
        var ids: [UInt8] = []
        ids.reserveCapacity(posts.reduce(1) { $0 + $1.id.utf8.count + 1 })
        for post in posts where Self.fitsOnALine(post.id) {
            ids.append(contentsOf: post.id.utf8)
            ids.append(0x0A)
        }
        if ids.isEmpty { ids.append(0x0A) }
        try LocalFile.writeAtomically(idsPath, ids, mode: 0o600)
    }

    /// Whether `id` holds no line break: memchr over its own bytes (100,000 ids stepped
    /// through a byte at a time were a thirtieth of a big feed's list).
    static func fitsOnALine(_ id: String) -> Bool {
        id.utf8.withContiguousStorageIfAvailable { utf8 in
            guard let start = utf8.baseAddress else { return true }
            return memchr(start, 0x0A, utf8.count) == nil && memchr(start, 0x0D, utf8.count) == nil
        } ?? !id.utf8.contains { $0 == 0x0A || $0 == 0x0D }
    }

    /// `ids` beside `listing.tsv`.
    public var idsPath: String { String(listingPath.dropLast("listing.tsv".count)) + "ids" }

    /// The last listing kept; nil when there is none. A damaged copy is an error.
    public func savedListing() throws(ToolError) -> [PostMetadata]? {
        guard LocalFile.isRegularFile(listingPath) else { return nil }
        let bytes = try LocalFile.read(listingPath, limit: 256 << 20, regularOnly: true)
        switch ListingFile.decode(bytes) {
        case .success(let posts): return posts
        case .failure(let damage): throw .badData("\(listingPath): damaged (\(damage.problem)); blogctl list writes it again")
        }
    }
}

extension PostCache {
    /// The post `id` names, as git takes a short hash (issue 47): `id` itself when it is
    /// cached or listed, or when the saved listing has no post that starts with it (the
    /// server decides); the one listed post it starts; an error naming the candidates when
    /// it starts several. With it, the post id the listing gives it (nil: ask the server), so
    /// that the listing is read once for both.
    public func lookUp(_ id: String) throws(ToolError) -> (id: String, postId: String?) {
        guard entry(id) == nil, let listing = try? savedListing() else { return (id, nil) }
        if let listed = listing.first(where: { $0.id.utf8.elementsEqual(id.utf8) }) { return (id, listed.postId) }
        let ids = listing.map(\.id)
        guard ids.contains(where: { $0.utf8.starts(with: id.utf8) }) else { return (id, nil) }
        let resolved = try IDPrefix.resolve(id, among: ids, kind: "post", listing: "blogctl list")
        return (resolved, listing.first { $0.id.utf8.elementsEqual(resolved.utf8) }?.postId)
    }

    public func resolvedID(_ id: String) throws(ToolError) -> String { try lookUp(id).id }
}
