#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import ToolboxKit

/// Which posts were read: `read.json` (a JSON array of post ids) under
/// `$XDG_DATA_HOME/blogctl`, a private folder. Every change is read, changed and written
/// atomically under an exclusive lock, so two blogctl processes never lose each other's
/// marks. A damaged file is an error, never silently replaced.
public struct ReadMarks: Sendable {
    public let folder: String
    public var path: String { folder + "/read.json" }
    /// Far beyond any real list of ids; a larger file is damage.
    static let maximumSize = 64 << 20

    public init(folder: String) { self.folder = folder }

    public static func standard(environment: [String: String] = Environment.current) -> ReadMarks {
        ReadMarks(folder: Paths(environment: environment).data("blogctl"))
    }

    /// The ids marked read; none when the file does not exist yet.
    public func load() throws(ToolError) -> Set<String> {
        guard LocalFile.isRegularFile(path) || access(path, F_OK) == 0 else { return [] }
        let bytes = try LocalFile.read(path, limit: Self.maximumSize, regularOnly: true)
        if bytes.isEmpty { return [] }
        do {
            return Set(try JSONCoding.decode([String].self, from: Data(bytes)))
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
        if read { marks.formUnion(ids) } else { marks.subtract(ids) }
        guard marks != before else { return 0 }
        let bytes = JSONCoding.encode(marks.sorted())
        try LocalFile.writeAtomically(path, Array(bytes) + [0x0A], mode: 0o600)
        return marks.symmetricDifference(before).count
    }
}
