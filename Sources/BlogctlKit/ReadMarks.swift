#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import ToolboxKit

/// Which posts were read: `read.json` (a JSON array of post ids) under
/// `$XDG_DATA_HOME/blogctl/servers/SERVER`, a private folder, one per server as the cache
/// and the search index are (post 7 of one server is not post 7 of another). Every change
/// is read, changed and written atomically under an exclusive lock, so two blogctl
/// processes never lose each other's marks. A damaged file is an error, never silently
/// replaced.
public struct ReadMarks: Sendable {
    public let folder: String
    public var path: String { folder + "/read.json" }
    /// The one file of every server's marks that came before them (`$XDG_DATA_HOME/blogctl/
    /// read.json`): a server's marks start from it until that server has its own, so that an
    /// upgrade loses no mark.
    public let legacyPath: String?
    /// Far beyond any real list of ids; a larger file is damage.
    static let maximumSize = 64 << 20

    public init(folder: String, legacyPath: String? = nil) {
        self.folder = folder
        self.legacyPath = legacyPath
    }

    public static func standard(server: ServerURL, environment: [String: String] = Environment.current) -> ReadMarks {
        let base = Paths(environment: environment).data(.blogctl)
        return ReadMarks(folder: base + "/servers/" + server.folderName, legacyPath: base + "/read.json")
    }

    /// Post ids marked read, compared byte by byte: `é` and `e` + U+0301 are two ids, though
    /// equal as Swift strings (a `Set<String>` would mark both when one was read).
    public struct IDs: Equatable, ExpressibleByArrayLiteral, Sendable {
        private(set) var members: Set<ByteKey> = []

        public init(arrayLiteral ids: String...) { self.init(ids) }
        public init(_ ids: some Sequence<String>) { members = Set(ids.map(ByteKey.init)) }

        public func contains(_ id: String) -> Bool { !members.isEmpty && members.contains(ByteKey(id)) }
        public var count: Int { members.count }
        /// The ids in byte order, as the file keeps them.
        public var sorted: [String] { members.map(\.text).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) } }

        mutating func insert(_ ids: [String]) { for id in ids { members.insert(ByteKey(id)) } }
        mutating func remove(_ ids: [String]) { for id in ids { members.remove(ByteKey(id)) } }
    }

    /// An id hashed and compared by its bytes, with no array made for each lookup (100,000
    /// lookups at every arrangement of `ui`'s list).
    struct ByteKey: Hashable, Sendable {
        let text: String
        init(_ text: String) { self.text = text }

        static func == (a: ByteKey, b: ByteKey) -> Bool { a.text.utf8.elementsEqual(b.text.utf8) }

        func hash(into hasher: inout Hasher) {
            var text = text
            text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        }
    }

    /// The ids marked read; none when the file does not exist yet.
    public func load() throws(ToolError) -> IDs {
        if let legacyPath, !Self.exists(path), Self.exists(legacyPath) { return try Self.load(legacyPath) }
        return try Self.load(path)
    }

    static func exists(_ path: String) -> Bool { LocalFile.isRegularFile(path) || access(path, F_OK) == 0 }

    static func load(_ path: String) throws(ToolError) -> IDs {
        guard exists(path) else { return [] }
        let bytes = try LocalFile.read(path, limit: Self.maximumSize, regularOnly: true)
        if bytes.isEmpty { return [] }
        do {
            return IDs(try JSONCoding.decode([String].self, from: Data(bytes)))
        } catch {
            throw .badData("\(path): damaged (\(error.problem)); remove it to start again")
        }
    }

    /// Marks `ids` read (or unread), keeping every other mark. Returns how many changed.
    @discardableResult
    public func mark(_ ids: [String], read: Bool) throws(ToolError) -> Int {
        try LocalFile.privateDirectory(folder)
        let lockPath = folder + "/read.lock"
        let lock = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard lock >= 0 else { throw .io(path: lockPath, reason: String(cString: strerror(errno))) }
        defer { close(lock) }
        while flock(lock, LOCK_EX) != 0 {
            guard errno == EINTR else { throw .io(path: lockPath, reason: String(cString: strerror(errno))) }
        }
        var marks = try load()
        let before = marks
        if read { marks.insert(ids) } else { marks.remove(ids) }
        guard marks != before else { return 0 }
        let bytes = JSONCoding.encode(marks.sorted)
        try LocalFile.writeAtomically(path, Array(bytes) + [0x0A], mode: 0o600)
        return marks.members.symmetricDifference(before.members).count
    }
}
