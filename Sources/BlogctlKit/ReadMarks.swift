import FoundationEssentials
import ToolboxKit

/// Which posts of one server were read: rows of the library's `marks` (`Library`), so that
/// every source's marks are in one file and an unread count across feeds is one query. Post 7
/// of one server is not post 7 of another. Two blogctl processes never lose each other's
/// marks: each change is one transaction.
public struct ReadMarks: Sendable {
    public let server: ServerURL
    let environment: [String: String]

    public init(server: ServerURL, environment: [String: String] = Environment.current) {
        self.server = server
        self.environment = environment
    }

    public static func standard(server: ServerURL, environment: [String: String] = Environment.current) -> ReadMarks {
        ReadMarks(server: server, environment: environment)
    }

    /// Post ids marked read, compared byte by byte: `é` and `e` + U+0301 are two ids, though
    /// equal as Swift strings (a `Set<String>` would mark both when one was read).
    public struct IDs: Equatable, ExpressibleByArrayLiteral, Sendable {
        private(set) var members: Set<ByteKey> = []

        public init(arrayLiteral ids: String...) { self.init(ids) }
        public init(_ ids: some Sequence<String>) { members = Set(ids.map(ByteKey.init)) }

        public func contains(_ id: String) -> Bool { !members.isEmpty && members.contains(ByteKey(id)) }
        public var count: Int { members.count }
        /// The ids in byte order.
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

    /// The ids marked read.
    public func load() throws(ToolError) -> IDs {
        try Library.standard(environment: environment).readIDs(server)
    }

    /// Marks `ids` read (or unread), keeping every other mark. Returns how many changed.
    @discardableResult
    public func mark(_ ids: [String], read: Bool) throws(ToolError) -> Int {
        try Library.standard(environment: environment).mark(ids, read: read, server: server)
    }
}
