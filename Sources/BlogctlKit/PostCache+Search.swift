#if canImport(Glibc)
import Glibc
#endif
import ToolboxKit
import BlogctlEngines

/// The cache keeps the search index in step: a body stored is indexed, a body evicted or
/// cleared is forgotten. The index is a copy, so these are best effort; `cache reindex` (and
/// any search that finds the index damaged) rebuilds it from the cache.
extension PostCache {
    /// `search.sqlite` at the top of the cache, one for every source; beside the `posts`
    /// folder of a cache made on a bare folder.
    public var indexPath: String { indexFolder + "/search.sqlite" }

    var indexFolder: String {
        if let owner { return Paths(environment: owner.environment).cache(.blogctl) }
        return directory.lastIndex(of: "/").map { String(directory[..<$0]) } ?? "."
    }

    /// The name of this cache's posts in the index: its server's folder name.
    public var indexSource: String { owner?.server.folderName ?? "" }

    /// The index, opened (made anew when it was missing or damaged, or with `fresh`), holding
    /// this cache's bodies: a source whose bodies it has not taken in is filled from the cache.
    public func searchIndex(fresh: Bool = false) throws(ToolError) -> SearchIndex {
        try LocalFile.privateDirectory(indexFolder)
        let index = try SearchIndex(path: indexPath, fresh: fresh)
        try takeInBodies(index)
        return index
    }

    /// Fills `index` with this cache's bodies unless it holds them already.
    func takeInBodies(_ index: SearchIndex) throws(ToolError) {
        guard try !index.hasBodies(source: indexSource) else { return }
        try reindex(index)
        // Before the one index, each server's was `search.sqlite` beside its posts: a copy
        // of what is now in the shared one.
        if owner != nil { unlink(String(directory.dropLast("/posts".count)) + "/search.sqlite") }
    }

    /// `blogctl search`: an index found damaged while searching is made anew from the cache
    /// and asked again.
    /// Titles, authors and summaries come from the saved listing, taken into the index here,
    /// at the first search after it changed, not at each `list`.
    public func search(_ words: [String], limit: Int, marks: (String, String), centred: Bool = false) throws(ToolError) -> [SearchIndex.Hit] {
        do {
            let index = try searchIndex()
            try indexListing(index)
            return try index.search(words, sources: [indexSource], limit: limit, marks: marks, centred: centred)
        } catch where error == SearchIndex.damaged(indexPath) {
            let index = try searchIndex(fresh: true)
            try indexListing(index)
            return try index.search(words, sources: [indexSource], limit: limit, marks: marks, centred: centred)
        }
    }

    /// Brings `index` up to what the library keeps of the server. Named by the source's
    /// listing generation, so an unchanged listing costs one row read, never the entries; a
    /// cache on a bare folder has no listing to learn. `known`: the source's record and its
    /// fingerprint in the index, when read already (for every feed at once).
    func indexListing(_ index: SearchIndex, known: (source: SourceRecord, taken: String?)? = nil) throws(ToolError) {
        guard owner != nil else { return }
        let (library, server) = try library()
        let record = try known == nil ? library.source(server) : known?.source
        guard let source = record, let listed = source.listedAt else { return }
        let fingerprint = "library-\(source.generation)-\(listed.timeIntervalSince1970)"
        let taken = try known == nil ? index.listingFingerprint(source: indexSource) : known?.taken
        guard taken != fingerprint, let posts = try library.listing(server) else { return }
        try index.addListing(posts, source: indexSource, fingerprint: fingerprint)
    }

    /// Rebuilds `index`'s bodies of this cache from every valid cache entry. Returns how many
    /// were indexed.
    @discardableResult
    public func reindex(_ index: SearchIndex) throws(ToolError) -> Int {
        _ = try LibXML2.loaded()  // Said once, before the bodies go, rather than indexing none.
        try index.removeAllBodies(source: indexSource)
        var count = 0
        for entry in entries() {
            guard let body = body(entry.metadata.id, entry: entry) else { continue }
            try index.addBody(entry.metadata, source: indexSource) { add in Self.layOut(body, add) }
            count += 1
        }
        try index.tookInBodies(source: indexSource)
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
            indexLink.withIndex(self) { index throws(ToolError) in try index.addBody(metadata, source: indexSource) { add in Self.layOut(body, add) } }
            return
        }
        var chunks: [String] = []
        Self.layOut(body) { chunks.append($0) }
        indexLink.withIndex(self) { index throws(ToolError) in try index.addBody(metadata, source: indexSource) { add in chunks.forEach(add) } }
    }

    func indexRemoved(stem: String) {
        guard let entry = entry(stem: stem) else { return }
        indexLink.withIndex(self) { index throws(ToolError) in try index.removeBody(entry.metadata.id, source: indexSource) }
    }

    func indexCleared() {
        indexLink.withIndex(self) { index throws(ToolError) in
            try index.removeAllBodies(source: indexSource)
            try index.tookInBodies(source: indexSource)
        }
    }
}
