import ToolboxKit

/// The cache keeps the search index in step: a body stored is indexed, a body evicted or
/// cleared is forgotten. The index is a copy, so these are best effort; `cache reindex` (and
/// any search that finds the index damaged) rebuilds it from the cache.
extension PostCache {
    /// `search.sqlite`, beside the `posts` folder.
    public var indexPath: String {
        let parent = directory.lastIndex(of: "/").map { String(directory[..<$0]) } ?? "."
        return parent + "/search.sqlite"
    }

    /// The index, opened (and rebuilt from the cache when it was missing or damaged, or
    /// anew with `fresh`).
    public func searchIndex(fresh: Bool = false) throws(ToolError) -> SearchIndex {
        try LocalFile.privateDirectory(directory)
        let index = try SearchIndex(path: indexPath, fresh: fresh)
        if index.rebuilt { try reindex(index) }
        return index
    }

    /// `blogctl search`: an index found damaged while searching is made anew from the cache
    /// and asked again.
    /// Titles, authors and summaries come from the saved listing, taken into the index here,
    /// at the first search after it changed, not at each `list`.
    public func search(_ words: [String], limit: Int, marks: (String, String), centred: Bool = false) throws(ToolError) -> [SearchIndex.Hit] {
        do {
            let index = try searchIndex()
            try indexListing(index)
            return try index.search(words, limit: limit, marks: marks, centred: centred)
        } catch where error == SearchIndex.damaged(indexPath) {
            let index = try searchIndex(fresh: true)
            try indexListing(index)
            return try index.search(words, limit: limit, marks: marks, centred: centred)
        }
    }

    /// Brings `index` up to what the library keeps of the server. Named by the source's
    /// listing generation, so an unchanged listing costs one row read, never the entries; a
    /// cache on a bare folder has no listing to learn.
    func indexListing(_ index: SearchIndex) throws(ToolError) {
        guard owner != nil else { return }
        let (library, server) = try library()
        guard let source = try library.source(server), let listed = source.listedAt else { return }
        let fingerprint = "library-\(source.generation)-\(listed.timeIntervalSince1970)"
        guard try index.listingFingerprint() != fingerprint, let posts = try library.listing(server) else { return }
        try index.addListing(posts, fingerprint: fingerprint)
    }

    /// Rebuilds `index`'s bodies from every valid cache entry. Returns how many were indexed.
    @discardableResult
    public func reindex(_ index: SearchIndex) throws(ToolError) -> Int {
        _ = try LibXML2.loaded()  // Said once, before the bodies go, rather than indexing none.
        try index.removeAllBodies()
        var count = 0
        for entry in entries() {
            guard let body = body(entry.metadata.id, entry: entry) else { continue }
            try index.addBody(entry.metadata) { add in Self.layOut(body, add) }
            count += 1
        }
        return count
    }

    /// Bodies up to this size are laid out before the index's lock is taken (concurrent jobs
    /// render in parallel); a longer one is laid out into the index as it goes, in little memory.
    static let layOutApart = 1 << 20

    /// How the index lays a body out: as `read` does, without styles, wide.
    static let indexOptions = RenderOptions(format: .text, width: 1000, styled: false)

    /// The text of a body as `read` lays it out, without styles, wide, in the index's chunks.
    /// Without libxml2 an HTML body adds nothing: indexing is best effort, and `read` and
    /// `reindex` say why.
    static func layOut(_ body: PostBody, _ add: (String) -> Void) {
        withoutActuallyEscaping(add) { add in
            var chunker = SearchChunker(emit: add)
            let renderer = BodyRenderer(options: indexOptions) { piece in
                chunker.append(piece)
            }
            guard (try? PostPage.renderBody(body, into: renderer)) != nil else { return }
            renderer.finish()
            chunker.finish()
        }
    }

    /// Indexes a body just stored, decompressing it as it is laid out: no second copy of a
    /// large body in memory (a read from the network stays within its bound).
    func indexStored(_ metadata: PostMetadata, body: PostBody) {
        guard body.count <= Self.layOutApart else {
            indexLink.withIndex(self) { index throws(ToolError) in try index.addBody(metadata) { add in Self.layOut(body, add) } }
            return
        }
        var chunks: [String] = []
        Self.layOut(body) { chunks.append($0) }
        indexLink.withIndex(self) { index throws(ToolError) in try index.addBody(metadata) { add in chunks.forEach(add) } }
    }

    func indexRemoved(stem: String) {
        guard let entry = entry(stem: stem) else { return }
        indexLink.withIndex(self) { index throws(ToolError) in try index.removeBody(entry.metadata.id) }
    }

    func indexCleared() {
        indexLink.withIndex(self) { index throws(ToolError) in try index.removeAllBodies() }
    }
}
