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
        try LocalFile.writeAtomically(listingPath, ListingFile.encode(posts), mode: 0o600)
        // The ids alone, one a line, for the shell's Tab: decoding 10,000 posts' metadata
        // would take longer than a completion may.
        // By bytes: "\r\n" is one Character, which neither "\n" nor "\r" matches.
        let ids = posts.map(\.id).filter { !$0.utf8.contains(0x0A) && !$0.utf8.contains(0x0D) }.joined(separator: "\n") + "\n"
        try LocalFile.writeAtomically(idsPath, Array(ids.utf8), mode: 0o600)
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
