#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import ToolboxKit

/// What the cache knows about one post, kept beside its body in `ID.json`.
public struct CacheEntry: Codable, Sendable, Equatable {
    public var metadata: PostMetadata
    public var etag: String?
    /// Bytes of the body once decompressed.
    public var size: Int
    /// Bytes of `ID.html.gz`.
    public var storedSize: Int
    /// CRC-32 of `ID.html.gz` as it was written; nil in sidecars written before it was kept
    /// (their body is checked by inflating it whole).
    public var storedCRC: UInt32?
    public var stored: Date
    /// When a reader last used it (the sidecar's mtime), for least-recently-used eviction.
    public var lastUsed: Date?
    /// When the server last said it is current (a 304); nil: when it was stored.
    public var validated: Date?

    /// How old the copy is: since the server last stood by it.
    public var age: Double { Date().timeIntervalSince(validated ?? stored) }

    enum CodingKeys: String, CodingKey { case metadata, etag, size, storedSize, storedCRC, stored, validated }
}

/// The post cache under `$XDG_CACHE_HOME/blogctl/posts`: each body gzip-compressed in
/// `ID.html.gz` (zcat reads it), its metadata and ETag in `ID.json`, both written atomically.
/// A body that fails its CRC or length is discarded. The total stays under `capacity`
/// bytes by evicting the least recently used entries.
public struct PostCache: Sendable {
    public let directory: String
    public let capacity: Int
    /// The connection the cache keeps the search index in step through, one per index file in
    /// the process (every feed's cache and a prefetch's concurrent jobs write through it).
    var indexLink: SearchIndexLink { SearchIndexLink.shared(indexPath) }
    /// The server these posts are of, and the environment that names the library its listing
    /// and marks are kept in; nil for a cache made on a bare folder (a test of bodies alone).
    let owner: Owner?

    struct Owner: Sendable {
        let server: ServerURL
        let environment: [String: String]
    }
    /// Nothing larger is ever decompressed, whatever a sidecar claims.
    public static let largestBody = 1 << 30
    public static let defaultCapacity = 200_000_000

    public init(directory: String, capacity: Int = PostCache.defaultCapacity) {
        self.directory = directory
        self.capacity = capacity
        owner = nil
    }

    init(directory: String, capacity: Int, owner: Owner) {
        self.directory = directory
        self.capacity = capacity
        self.owner = owner
    }

    /// `$XDG_CACHE_HOME/blogctl/servers/SERVER/posts` with the capacity from
    /// `BLOGCTL_CACHE_MAX`. Everything kept is kept per server (`ServerURL.folderName`): the
    /// bodies, the saved listing, the search index. Post ids are the server's own, so post 7
    /// of one server is not post 7 of another, and a search never shows a post the server
    /// asked does not have.
    public static func standard(server: ServerURL, environment: [String: String] = Environment.current) throws(ToolError) -> PostCache {
        var capacity = defaultCapacity
        if let text = environment["BLOGCTL_CACHE_MAX"], !text.isEmpty {
            guard let value = ByteSize.parse(text) else {
                throw .usage("invalid BLOGCTL_CACHE_MAX \(Terminal.quote(text)): use bytes, e.g. 200000000, 500K, 200M, 1G")
            }
            capacity = value
        }
        return PostCache(directory: Paths(environment: environment).cache(.blogctl) + "/servers/" + server.folderName + "/posts",
                         capacity: capacity, owner: Owner(server: server, environment: environment))
    }

    /// Files are named by `ResourceID.fileStem` of the post's id: any id the server uses,
    /// none able to leave the folder or collide (a hashed stem's sidecar records its id).
    func bodyPath(_ id: String) -> String { stemPath(ResourceID.fileStem(id)) + ".html.gz" }
    func entryPath(_ id: String) -> String { stemPath(ResourceID.fileStem(id)) + ".json" }
    func stemPath(_ stem: String) -> String { directory + "/" + stem }

    // MARK: - Reading

    /// Whether the cache's folder may be read: walked as `FileTrust` walks what the toolbox
    /// reads (no folder or link on the way that another user owns or may write, the folder
    /// itself private), the rule writes follow. A cache root planted by another user in a
    /// shared `XDG_CACHE_HOME` (a link to her folder) is not read: her bodies and sidecars
    /// would be shown as the server's.
    var mayBeRead: Bool {
        FileTrust.folderProblem(directory, home: owner?.environment["HOME"] ?? Environment.current["HOME"]) == nil
            && (!folderExists || (try? LocalFile.checkPrivate(directory)) != nil)
    }

    /// The sidecar of `id`, or nil when there is none or it cannot be read.
    public func entry(_ id: String) -> CacheEntry? {
        guard mayBeRead else { return nil }
        // Byte by byte: `é` and `e` + U+0301 are two ids, though equal as Swift strings.
        guard let entry = entry(stem: ResourceID.fileStem(id)), entry.metadata.id.utf8.elementsEqual(id.utf8) else { return nil }
        return entry
    }

    /// The sidecar `STEM.json`, when it is ours and vouches for an id with that stem.
    func entry(stem: String) -> CacheEntry? {
        let path = stemPath(stem) + ".json"
        guard let bytes = try? LocalFile.read(path, limit: 1 << 20, regularOnly: true),
              var entry = try? JSONCoding.decode(CacheEntry.self, from: Data(bytes)),
              ResourceID.fileStem(entry.metadata.id) == stem
        else { return nil }
        entry.lastUsed = modificationTime(path)
        return entry
    }

    /// The body of `id`, checked, and the entry marked as used. A body that is missing,
    /// corrupt, truncated or of another length than recorded is removed with its sidecar, and
    /// nil returned so that the caller fetches it again. The check decompresses the file into
    /// nothing, a piece at a time: the body stays on disk until it is read.
    public func body(_ id: String, entry: CacheEntry) -> PostBody? {
        guard mayBeRead else { return nil }
        let path = bodyPath(id)
        guard entry.size <= Self.largestBody, Self.isIntact(path, entry: entry) else {
            remove(id)
            return nil
        }
        touch(id)
        return .file(path: path, size: entry.size)
    }

    /// Whether the gzip file at `path` is a regular file (never through a symlink) of the
    /// recorded stored size, whose trailer agrees with the recorded size, and whose bytes are
    /// those written (their CRC-32 as recorded; without one recorded, the whole stream
    /// inflates to the recorded size). Rendering inflates the body once more, so the check
    /// reads the file without inflating it where it can.
    static func isIntact(_ path: String, entry: CacheEntry) -> Bool {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, Int(info.st_size) == entry.storedSize,
              entry.storedSize >= 18 else { return false }
        var trailer = [UInt8](repeating: 0, count: 4)
        guard pread(fd, &trailer, 4, off_t(entry.storedSize - 4)) == 4 else { return false }
        let recorded = UInt32(trailer[0]) | UInt32(trailer[1]) << 8 | UInt32(trailer[2]) << 16 | UInt32(trailer[3]) << 24
        guard recorded == UInt32(truncatingIfNeeded: entry.size) else { return false }
        if let storedCRC = entry.storedCRC {
            guard let file = Gzip.crc32(fd: fd) else { return false }
            return file.crc == storedCRC && file.count == entry.storedSize
        }
        return (try? Gzip.decompress(fd: fd, limit: entry.size, consume: { _ in })) == entry.size
    }

    /// Every readable entry, most recently used first.
    public func entries() -> [CacheEntry] {
        guard mayBeRead else { return [] }
        let stems = names().compactMap { $0.hasSuffix(".json") && Self.isOwnName($0) ? String($0.dropLast(5)) : nil }
        return stems.compactMap { entry(stem: $0) }.sorted { ($0.lastUsed ?? .distantPast) > ($1.lastUsed ?? .distantPast) }
    }

    /// The post whose metadata id or post id is `id`, for `--offline`.
    public func find(_ id: String) -> CacheEntry? {
        if let direct = entry(id) { return direct }
        return entries().first { $0.metadata.postId == id }
    }

    // MARK: - Writing

    /// Stores `body` for `metadata`: the compressed body first, then the sidecar that vouches
    /// for it, each atomically. A crash between the two leaves a sidecar whose length does not
    /// match, which `body(_:entry:)` discards. Then evicts down to the capacity, unless the
    /// caller stores many at once and evicts after the last (eviction reads the whole folder).
    @discardableResult
    public func store(_ metadata: PostMetadata, body: [UInt8], etag: String?, evicting: Bool = true) throws(ToolError) -> CacheEntry {
        let writer = try bodyWriter()
        body.withUnsafeBufferPointer { writer.write($0) }
        return try writer.commit(metadata, etag: etag, evicting: evicting).entry
    }

    /// Records that the server has just stood by `entry` (a 304): its age starts again.
    /// Best effort: a sidecar that cannot be written leaves the copy as old as it was.
    /// `durable: false` for many at once (a feed's entries), unsynced: a stamp lost to a crash
    /// only makes the copy older.
    public func markValidated(_ entry: CacheEntry, durable: Bool = true) {
        var entry = entry
        entry.validated = Date()
        try? LocalFile.writeAtomically(entryPath(entry.metadata.id), Array(JSONCoding.encode(entry)), mode: 0o600, durable: durable)
    }

    /// Stores many small bodies at once (a feed's entries, at each list): no fsync for each
    /// (every copy is checked against its size and CRC when read, and one lost to a crash is
    /// fetched again), and indexed in one transaction: 10,000 entries took 35 s one by one.
    /// Best effort, as each `store`: a body that cannot be kept is left out.
    public func storeAll(_ items: [(metadata: PostMetadata, body: [UInt8], etag: String?)]) {
        guard !items.isEmpty else { return }
        // The index opened first: one made anew fills itself from the cache, which must not
        // hold this batch yet, or each body would be laid out and indexed twice.
        indexLink.withIndex(self) { _ throws(ToolError) in }
        var indexed: [(metadata: PostMetadata, chunks: [String])] = []
        guard (try? LocalFile.privateDirectory(directory)) != nil else { return }
        for item in items {
            guard let writer = try? bodyWriterInCheckedFolder() else { continue }
            item.body.withUnsafeBufferPointer { writer.write($0) }
            guard let stored = try? writer.commit(item.metadata, etag: item.etag, evicting: false, batch: true) else { continue }
            guard stored.body.count <= Self.layOutApart else {
                indexStored(item.metadata, body: stored.body)
                continue
            }
            // Laid out from the bytes in hand, not the file just deflated (inflated again).
            var chunks: [String] = []
            Self.layOut(.bytes(item.body)) { chunks.append($0) }
            indexed.append((item.metadata, chunks))
        }
        guard !indexed.isEmpty else { return }
        indexLink.withIndex(self) { index throws(ToolError) in try index.addBodies(indexed, source: indexSource) }
    }

    /// Marks `id` as just used.
    public func touch(_ id: String) {
        utimensat(AT_FDCWD, entryPath(id), nil, 0)
    }

    public func remove(_ id: String) { remove(stem: ResourceID.fileStem(id)) }

    func remove(stem: String) {
        indexRemoved(stem: stem)
        delete(stemPath(stem) + ".html.gz")
        delete(stemPath(stem) + ".json")
    }

    /// Removes every entry and our own leftovers, nothing else: only regular files whose
    /// names the cache writes, and only in a folder that passes `LocalFile.checkPrivate`
    /// (never through a symlinked folder). Returns how many entries there were.
    @discardableResult
    public func clear() throws(ToolError) -> Int {
        guard folderExists else { return 0 }
        try LocalFile.checkPrivate(directory)
        indexCleared()
        var count = 0
        for name in names() where Self.isOwnName(name) || Self.isOwnTemporaryName(name) {
            let path = directory + "/" + name
            guard LocalFile.isRegularFile(path) else { continue }
            if name.hasSuffix(".json") && Self.isOwnName(name) { count += 1 }
            unlink(path)
        }
        return count
    }

    private var folderExists: Bool {
        var info = stat()
        return lstat(directory, &info) == 0
    }

    /// Unlinks `path` only if it is a regular file: a symlink, folder or FIFO planted under
    /// one of our names is left alone.
    private func delete(_ path: String) {
        if LocalFile.isRegularFile(path) { unlink(path) }
    }

    /// `STEM.html.gz` or `STEM.json` for a stem the cache could have written.
    static func isOwnName(_ name: String) -> Bool {
        let stem: Substring
        if name.hasSuffix(".html.gz") { stem = name.dropLast(8) }
        else if name.hasSuffix(".json") { stem = name.dropLast(5) }
        else { return false }
        return ResourceID.isFileStem(stem)
    }

    /// `.ID.html.gz.tmp.PID.RANDOM` and the like, as `LocalFile.writeAtomically` names them.
    static func isOwnTemporaryName(_ name: String) -> Bool {
        guard let parsed = LocalFile.parseTemporaryName(name) else { return false }
        return isOwnName(parsed.name)
    }

    /// Bytes on disk: bodies and sidecars.
    public func totalSize() -> Int {
        names().reduce(0) { $0 + fileSize(directory + "/" + $1) }
    }

    /// Deletes least recently used entries until the cache fits its capacity (never `keeping`),
    /// and leftovers of writers that died (bodies without sidecar, temporary files).
    public func evict(keeping: String? = nil) {
        var sizes: [String: Int] = [:]
        var used: [String: Date] = [:]
        guard (try? LocalFile.checkPrivate(directory)) != nil else { return }
        for name in names() {
            let path = directory + "/" + name
            if let temporary = LocalFile.parseTemporaryName(name) {
                if Self.isOwnName(temporary.name) && LocalFile.isDead(temporary.pid) { delete(path) }
                continue
            }
            guard Self.isOwnName(name), LocalFile.isRegularFile(path) else { continue }
            let stem: String
            if name.hasSuffix(".html.gz") { stem = String(name.dropLast(8)) }
            else {
                stem = String(name.dropLast(5))
                used[stem] = modificationTime(path)
            }
            sizes[stem, default: 0] += fileSize(path)
        }
        var total = sizes.values.reduce(0, +)
        guard total > capacity else { return }
        let kept = keeping.map(ResourceID.fileStem)
        let order = sizes.keys.sorted { (used[$0] ?? .distantPast, $0) < (used[$1] ?? .distantPast, $1) }
        for stem in order where total > capacity && stem != kept {
            remove(stem: stem)
            total -= sizes[stem] ?? 0
        }
    }

    // MARK: - Files

    private func names() -> [String] {
        guard let dir = opendir(directory) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let item = readdir(dir) {
            let name = DirectoryEntry.name(item)
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    private func fileSize(_ path: String) -> Int {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_size) : 0
    }

    private func modificationTime(_ path: String) -> Date? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Date(timeIntervalSince1970: Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9)
    }
}
