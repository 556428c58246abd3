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
    public func search(_ words: [String], limit: Int, marks: (String, String), centred: Bool = false) throws(ToolError) -> [SearchIndex.Hit] {
        do {
            return try searchIndex().search(words, limit: limit, marks: marks, centred: centred)
        } catch where error == SearchIndex.damaged(indexPath) {
            return try searchIndex(fresh: true).search(words, limit: limit, marks: marks, centred: centred)
        }
    }

    /// Rebuilds `index`'s bodies from every valid cache entry. Returns how many were indexed.
    @discardableResult
    public func reindex(_ index: SearchIndex) throws(ToolError) -> Int {
        try index.removeAllBodies()
        var count = 0
        for entry in entries() {
            guard let body = body(entry.metadata.id, entry: entry) else { continue }
            try index.addBody(entry.metadata, text: Self.searchText(body))
            count += 1
        }
        return count
    }

    /// The text of a body as `read` lays it out, without styles, wide, for the index.
    /// Text past `SearchIndex.textLimit` is laid out but not kept.
    static func searchText(_ body: PostBody) -> String {
        var text: [UInt8] = []
        let renderer = BodyRenderer(options: RenderOptions(format: .text, width: 1000, styled: false)) { piece in
            if text.count < SearchIndex.textLimit { text += piece.prefix(SearchIndex.textLimit - text.count) }
        }
        PostPage.renderBody(body, into: renderer)
        renderer.finish()
        return String(decoding: text, as: UTF8.self)
    }

    /// Indexes a body just stored, decompressing it as it is laid out: no second copy of a
    /// large body in memory (a read from the network stays within its bound). The text is laid
    /// out outside the index's lock, so that concurrent jobs render in parallel.
    func indexStored(_ metadata: PostMetadata, body: PostBody) {
        let text = Self.searchText(body)
        indexLink.withIndex(self) { index throws(ToolError) in try index.addBody(metadata, text: text) }
    }

    func indexRemoved(stem: String) {
        guard let entry = entry(stem: stem) else { return }
        indexLink.withIndex(self) { index throws(ToolError) in try index.removeBody(entry.metadata.id) }
    }

    func indexCleared() {
        indexLink.withIndex(self) { index throws(ToolError) in try index.removeAllBodies() }
    }
}
