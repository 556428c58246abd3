import ToolboxKit
import BlogctlEngines

extension PostCache {
    /// The search index's half of a body parsed once (issue 48). `read` and the screen hand
    /// libxml2's events to `parse` beside their own (`PostPage.render(…, indexing:)`), so
    /// a body just downloaded is decompressed and parsed once, for the reader and the index
    /// together, and its first line is not held back by indexing. The index's text is kept
    /// (up to `layOutApart`) or spooled to an unlinked file in the cache's private folder,
    /// and indexed at `finish` in the chunks `indexStored` makes. A body whose parse did not
    /// run to its end (the reader quit the pager, an error, a screen that moved on) is
    /// indexed at `finish` on its own, as every body was before: the index never misses one.
    /// Not Sendable: made by `PostLoader` and finished by the one task its caller runs in, as
    /// the compiler checks (`Loaded` is not Sendable either).
    public final class BodyIndexer {
        let cache: PostCache
        let metadata: PostMetadata
        let body: PostBody
        /// What the reader's parse hands the index: a renderer laying the body out as
        /// `indexStored` does (plain text, wide, no styles), into this indexer.
        public var parse: SharedParse {
            if let shared { return shared }
            let made = SharedParse(renderer: BodyRenderer(options: PostCache.indexOptions) { [unowned self] in self.take($0) })
            shared = made
            return made
        }
        private var shared: SharedParse?
        /// The shared parse reached the body's end.
        private var parsed: Bool { shared?.reachedEnd == true }
        private var text: [UInt8] = []
        private var spool: SpooledText.Writer?
        private var failed = false
        private var finished = false

        init(cache: PostCache, metadata: PostMetadata, body: PostBody) {
            self.cache = cache
            self.metadata = metadata
            self.body = body
        }

        /// Dropped unfinished: indexed on its own (the renderer, which calls back into this
        /// object, is not touched while it goes).
        deinit {
            shared = nil
            finish()
        }

        private func take(_ bytes: [UInt8]) {
            guard !failed else { return }
            if let spool { return spool.append(bytes) }
            text += bytes
            guard text.count > PostCache.layOutApart else { return }
            // Past a MiB of text: the rest goes to a file, never held (a 250 MB post).
            guard let spool = try? SpooledText.Writer(folder: cache.directory) else {
                failed = true
                text = []
                return
            }
            spool.append(text)
            self.spool = spool
            text = []
        }

        /// Indexes the body: from the text the shared parse laid out, else on its own.
        public func finish() {
            guard !finished else { return }
            finished = true
            if parsed { shared?.renderer.finish() }
            let spooling = spool != nil
            let spooled = try? spool?.finish()
            spool = nil
            guard parsed, !failed, spooled != nil || !spooling else {
                return cache.indexStored(metadata, body: body)
            }
            let text = self.text
            self.text = []
            cache.indexLink.withIndex(cache) { index throws(ToolError) in
                try index.addBody(metadata, source: cache.indexSource) { add in
                    withoutActuallyEscaping(add) { add in
                        var chunker = SearchChunker(emit: add)
                        chunker.append(text)
                        if let spooled {
                            // A thousand lines at a time: the spool is read, never held.
                            for start in stride(from: 0, to: spooled.lineCount, by: 1_000) {
                                for line in spooled.lines(start..<min(start + 1_000, spooled.lineCount)) {
                                    chunker.append(line.utf8)
                                    chunker.append(CollectionOfOne(UInt8(0x0A)))
                                }
                            }
                        }
                        chunker.finish()
                    }
                }
            }
        }
    }
}
