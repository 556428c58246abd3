import FoundationEssentials
import ToolboxKit

/// How `blogctl ui` arranges its list, chosen in the `o` menu and remembered in
/// `$XDG_STATE_HOME/blogctl/ui.json` for the next start.
public struct Arrangement: Codable, Sendable, Equatable {
    public var grouping: PostGrouping = .none
    public var sorting: PostSorting = .date
    public var reversed = false

    public init(grouping: PostGrouping = .none, sorting: PostSorting = .date, reversed: Bool = false) {
        self.grouping = grouping
        self.sorting = sorting
        self.reversed = reversed
    }

    public var ordering: PostOrdering { PostOrdering(grouping: grouping, sorting: sorting, reversed: reversed) }

    /// The `o` menu's entries, in order; `choosing` applies one by its index.
    public static let menuEntries = ["Group by author", "Group by month", "No groups",
                                     "Sort by date", "Sort by title", "Sort by author", "Reverse"]

    public func choosing(_ entry: Int) -> Arrangement {
        var next = self
        switch entry {
        case 0: next.grouping = .author
        case 1: next.grouping = .month
        case 2: next.grouping = .none
        case 3: next.sorting = .date
        case 4: next.sorting = .title
        case 5: next.sorting = .author
        default: next.reversed.toggle()
        }
        return next
    }

    /// "by author, title", for the title bar.
    public var summary: String {
        var parts = grouping == .none ? [] : ["by \(grouping.rawValue)"]
        parts.append("\(sorting.rawValue)\(reversed ? " reversed" : "")")
        return parts.joined(separator: ", ")
    }

    public static func path(environment: [String: String] = Environment.current) -> String {
        Paths(environment: environment).state(.blogctl) + "/ui.json"
    }

    /// The remembered arrangement; the default when there is none or it cannot be read (a
    /// preference is not worth refusing to start over).
    public static func load(from path: String) -> Arrangement {
        guard LocalFile.isRegularFile(path), let bytes = try? LocalFile.read(path, limit: 1 << 16, regularOnly: true),
              let saved = try? JSONCoding.decode(Arrangement.self, from: Data(bytes)) else { return Arrangement() }
        return saved
    }

    public func save(to path: String) throws(ToolError) {
        try LocalFile.privateDirectory(String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]))
        try LocalFile.writeAtomically(path, Array(JSONCoding.encode(self)) + [0x0A], mode: 0o600)
    }
}
