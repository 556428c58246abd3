#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import ToolboxKit

/// Writing a body into the cache as it arrives: network → gzip → a file with no name until
/// it is committed, so nothing of a stopped download stays.
extension PostCache {
    /// A body to be written into the cache as it arrives (`BodyWriter`).
    public func bodyWriter() throws(ToolError) -> BodyWriter {
        try LocalFile.privateDirectory(directory)
        return try bodyWriterInCheckedFolder()
    }

    /// `bodyWriter` once the folder has been made and checked (`storeAll` checks it once for
    /// its batch, not once per body: the same path walked a thousand times over).
    func bodyWriterInCheckedFolder() throws(ToolError) -> BodyWriter {
        // A file with no name (O_TMPFILE) until it is committed: a download stopped by Ctrl-C,
        // SIGKILL or a crash leaves nothing behind. Where the file system has no such files,
        // `.incoming.html.gz.tmp.PID.RANDOM`, a name the cache owns and `evict` and `clear` remove.
        let anonymous = LocalFile.openUnnamed(in: directory)
        if anonymous >= 0 { return BodyWriter(cache: self, fd: anonymous, temporary: nil) }
        let (fd, temporary) = try LocalFile.createTemporary(for: directory + "/incoming.html.gz")
        return BodyWriter(cache: self, fd: fd, temporary: temporary)
    }

    /// A body being written into the cache, compressed as it arrives into a temporary file of
    /// the cache's folder; `commit` names it for its post, `abandon` (or dropping the writer)
    /// removes it. Memory stays that of the compressor, whatever the body's size.
    public final class BodyWriter {
        let cache: PostCache
        private var gzip: Gzip.FileWriter
        private let fd: Int32
        /// The file's name; nil while it has none (O_TMPFILE).
        private let temporary: String?
        private var done = false

        init(cache: PostCache, fd: Int32, temporary: String?) {
            self.cache = cache
            self.fd = fd
            self.temporary = temporary
            gzip = Gzip.FileWriter(fd: fd)
        }

        deinit { abandon() }

        /// Bytes taken so far (uncompressed).
        public var count: Int { gzip.bytesIn }

        public func write(_ bytes: UnsafeBufferPointer<UInt8>) { gzip.write(bytes) }

        /// Starts the file again, for a download tried again from the start.
        public func restart() {
            _ = ftruncate(fd, 0)
            _ = lseek(fd, 0, SEEK_SET)
            gzip = Gzip.FileWriter(fd: fd)
        }

        /// Finishes the file, moves it into place as `metadata`'s body, then writes the
        /// sidecar, indexes the text and evicts; the body, as a file to render from.
        /// `batch`: one of many stored at once (`PostCache.storeAll`): not synced to disk one by
        /// one, and indexed by the caller, all in one transaction. `indexing` false: indexed by
        /// the caller's own parse (`BodyIndexer`).
        public func commit(_ metadata: PostMetadata, etag: String?, evicting: Bool = true, batch: Bool = false,
                           indexing: Bool = true) throws(ToolError)
            -> (entry: CacheEntry, body: PostBody) {
            done = true
            var failure = gzip.finish()
            let size = gzip.bytesIn
            let stored = gzip.bytesOut
            let storedCRC = gzip.storedCRC
            let path = cache.bodyPath(metadata.id)
            var name = temporary
            var linkedInPlace = false
            if name == nil && failure == 0 {
                // Named at last, complete (its mode set, synced unless in a batch): linked
                // straight to its own name when nothing holds it (a new entry: it appears
                // whole or not at all, with no rename), else under a temporary name, then
                // renamed over the old copy.
                if fchmod(fd, 0o600) != 0 || (!batch && fsync(fd) != 0) { failure = errno }
                else if LocalFile.link(unnamed: fd, to: path) { linkedInPlace = true }
                else if errno != EEXIST { failure = errno }
                else {
                    let linked = LocalFile.temporaryPath(for: path)
                    if LocalFile.link(unnamed: fd, to: linked) { name = linked }
                    else { failure = errno }
                }
            }
            if linkedInPlace {
                close(fd)
            } else {
                guard let name else {
                    close(fd)
                    throw .io(path: path, reason: String(cString: strerror(failure)))
                }
                try LocalFile.commitTemporary(fd, name, to: path, mode: 0o600, failure: failure, durable: !batch)
            }
            let entry = CacheEntry(metadata: metadata, etag: etag, size: size, storedSize: stored, storedCRC: storedCRC, stored: Date(), lastUsed: Date())
            // A body new to the cache most likely has no sidecar yet either.
            try LocalFile.writeAtomically(cache.entryPath(metadata.id), Array(JSONCoding.encode(entry)), mode: 0o600, durable: !batch,
                                          likelyNew: linkedInPlace)
            let body = PostBody.file(path: path, size: size)
            if !batch && indexing { cache.indexStored(metadata, body: body) }
            if evicting { cache.evict(keeping: metadata.id) }
            return (entry, body)
        }

        /// Removes the temporary file: nothing of a failed or stopped download stays.
        public func abandon() {
            guard !done else { return }
            done = true
            close(fd)
            if let temporary { unlink(temporary) }
        }
    }
}
