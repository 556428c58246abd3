import Foundation
import TestSupport
import Testing
import ToolboxKit
@testable import BlogctlKit
@testable import BlogctlEngines

/// Issue 63: `list` reads the library in its display order, one row at a time, by SQLite's
/// sorter; the order and the text must be what `PostOrdering` and `PostListing` make of the
/// same entries held in memory, every grouping, sorting and direction, ties included.
@Suite struct LibraryOrderTests {
    typealias Home = LibraryTests.Home

    /// Three sources of random entries (titles and names that differ only in case, in
    /// composition or in script; equal dates; no date; ids shared across sources), some read.
    static func library(seed: UInt64) throws -> (Home, Library, [(server: ServerURL, name: String?)]) {
        let home = Home()
        let library = try home.library()
        var random = SeededGenerator(seed: seed)
        func pick<T>(_ items: [T]) -> T { items[Int(random.next() % UInt64(items.count))] }
        let titles = ["apple", "Apple", "banana", "Äpfel", "äpfel", "e\u{301}clair", "\u{e9}clair", "東京", "Zebra", "", "apple "]
        let names = ["Ada", "ada", "Bob", "", "Émile", "émile", "李"]
        let dates: [Double?] = [nil, 0, 1_533_081_600, 1_533_081_600, 1_535_760_000, 1_535_759_999, -86_400, 1e12]
        let sources = [(try ServerURL("http://127.0.0.1:9/b.xml"), "b feed"), (try ServerURL("http://127.0.0.1:9/a.xml"), "A feed"),
                       (try ServerURL("http://127.0.0.1:9/c.xml"), "b feed (2)")]
        for (server, _) in sources {
            let posts = (0..<150).map { _ in
                let id = pick(["p", "P", "q", "é", "e\u{301}", "10", "9"]) + "\(random.next() % 60)"
                // Some carry files and a picture (issue 65), kept by the library and written.
                let enclosures: [Enclosure]? = pick([nil, nil, [Enclosure(url: "https://m.example/a \"b\"/1.mp3", type: "audio/mpeg", length: 5, duration: 61)],
                                                     [Enclosure(url: "https://m.example/2"), Enclosure(url: "https://m.example/é", length: 1 << 40)]])
                return PostMetadata(id: id, title: pick(titles), publishDate: pick(dates).map { Date(timeIntervalSince1970: $0) }, postId: id,
                                    summary: pick(["", "s", "a\tb", "q\"\\/", "\u{1}\u{7f}\u{85}\u{202e}\u{2028}x", "line\nbreak\r", "👨‍👩‍👧\u{fffd}"]), author: Author(name: pick(names), image: "", title: ""),
                                    enclosures: enclosures, picture: enclosures == nil ? nil : "https://m.example/p\u{1}.jpg")
            }
            try library.saveListing(posts, server: server)
            let read = (try library.listing(server) ?? []).map(\.id).filter { _ in random.next() % 3 == 0 }
            _ = try library.mark(read, read: true, server: server)
        }
        return (home, library, sources.map { ($0.0, Optional($0.1)) })
    }

    /// The entries as `list` held them before: each source's listing in order, named, marked.
    static func held(_ library: Library, _ sources: [(server: ServerURL, name: String?)]) throws -> (posts: [PostMetadata], read: [Bool]) {
        var posts: [PostMetadata] = [], read: [Bool] = []
        for (server, name) in sources {
            let marks = try library.readIDs(server)
            for var post in try library.listing(server) ?? [] {
                post.feed = name
                posts.append(post)
                read.append(marks.contains(post.id))
            }
        }
        return (posts, read)
    }

    /// The sources' tag groups (`--group-by tag`): two feeds share a tag that sorts before
    /// the other's, one has none; by server key for the library, by feed name in memory.
    static func tags(_ sources: [(server: ServerURL, name: String?)]) -> (byKey: [String: String], byName: [String: String]) {
        let groups = ["Tech/Dev", "", "Tech/Dev", "apple"]
        var byKey: [String: String] = [:], byName: [String: String] = [:]
        for (index, source) in sources.enumerated() {
            byKey[source.server.folderName] = groups[index % groups.count]
            byName[source.name ?? ""] = groups[index % groups.count]
        }
        return (byKey, byName)
    }

    /// A zone whose offset changes with the date, as a summer time does.
    static let zone: @Sendable (Date) -> Int = { date in Int(date.timeIntervalSince1970) % 7 > 3 ? 3600 : -7200 }

    @Test(arguments: [63, 64, 65])
    func theLibrarysOrderIsTheListsOrder(seed: UInt64) throws {
        let (_, library, sources) = try Self.library(seed: seed)
        let (posts, _) = try Self.held(library, sources)
        let tags = Self.tags(sources)
        for grouping in PostGrouping.allCases {
            for sorting in PostSorting.allCases {
                for reversed in [false, true] {
                    var ordering = PostOrdering(grouping: grouping, sorting: sorting, reversed: reversed, utcOffset: Self.zone)
                    ordering.feedTags = tags.byName
                    let expected = ordering.arrangePositions(posts).flatMap { group in
                        group.positions.map { "\(group.name)|\(posts[$0].feed ?? "")|\(posts[$0].id)|\(posts[$0].title)" }
                    }
                    var streamed: [String] = []
                    try library.eachEntry(of: sources, ordering: ordering, tags: tags.byKey) { entry in
                        streamed.append("\(entry.group)|\(entry.post.feed ?? "")|\(entry.post.id)|\(entry.post.title)")
                        return true
                    }
                    let first = streamed.indices.first { $0 < expected.count && streamed[$0] != expected[$0] }
                    #expect(streamed.count == expected.count && first == nil,
                            "\(grouping) \(sorting) reversed \(reversed): at \(first ?? -1) \(first.map { streamed[max($0 - 1, 0)...$0 + 1] } ?? []) \(first.map { expected[max($0 - 1, 0)...$0 + 1] } ?? [])")
                }
            }
        }
    }

    /// `list`'s text read from the library as it streams is the text made of the whole list
    /// held, in every output mode, grouped or not, filtered and limited.
    @Test func theStreamedListIsTheHeldList() throws {
        let (_, library, sources) = try Self.library(seed: 66)
        let (posts, read) = try Self.held(library, sources)
        // Marks compare ids by their bytes (`é` and `e` + U+0301 are two ids).
        var readKeys = Set<ReadMarks.ByteKey>()
        for (post, isRead) in zip(posts, read) where isRead { readKeys.insert(ReadMarks.ByteKey((post.feed ?? "") + "\u{0}" + post.id)) }
        func isRead(_ post: PostMetadata) -> Bool { readKeys.contains(ReadMarks.ByteKey((post.feed ?? "") + "\u{0}" + post.id)) }
        let filters = [PostFilter(), PostFilter(limit: 7), PostFilter(unreadOnly: true, limit: 40), PostFilter(author: "ADA"), PostFilter(limit: 0)]
        let tags = Self.tags(sources)
        for mode in [OutputMode.tsv, .json, .table] {
            for grouping in PostGrouping.allCases {
                for filter in filters {
                    var ordering = PostOrdering(grouping: grouping, sorting: .title, utcOffset: Self.zone)
                    ordering.feedTags = tags.byName
                    let run = ListRun(filter: filter, ordering: ordering, mode: mode, tags: tags.byKey.mapValues { $0.isEmpty ? [] : [$0] })
                    var held = ""
                    PostListing.render(filter.limited(run.ordering.arrange(posts.filter { filter.keeps($0, isRead: isRead($0)) })),
                                       grouped: grouping != .none, mode: mode, isRead: isRead,
                                       idLength: mode == .table ? IDPrefix.length(posts.map(\.id)) : nil,
                                       width: 100, bold: false) { held += $0 }
                    var streamed = ""
                    try run.stream(library, sources: sources, marks: true, width: 100, bold: false) { streamed += $0 }
                    let first = zip(streamed.split(separator: "\n", omittingEmptySubsequences: false), held.split(separator: "\n", omittingEmptySubsequences: false)).enumerated().first { $1.0 != $1.1 }
                    #expect(streamed == held, "\(mode) \(grouping) \(filter.limit ?? -1) \(filter.unreadOnly): line \(first.map { "\($0.offset): \($0.element.0) ≠ \($0.element.1)" } ?? "count")")
                }
            }
        }
    }

    /// Issue 65: a feed's long ids leave the title its room on a terminal: the table shows
    /// each id's shortest start that tells it from every id of the library (7 at least, as
    /// git), and that start typed back is the entry. Piped, the ids stay whole.
    @Test func aTableShowsIDsAsShortAsTypingThemBackAllows() throws {
        let home = Home()
        let library = try home.library()
        let blog = try ServerURL("http://127.0.0.1:9/blog.xml", allowingQuery: true)
        let other = try ServerURL("http://127.0.0.1:9/other.xml", allowingQuery: true)
        let long = ["https://blog.example/2024/05/a-first-post/", "https://blog.example/2024/05/another-post/", "https://blog.example/2023/x/"]
        try library.saveListing(long.map { LibraryTests.post($0, "Title of \($0.count)") }, server: blog)
        try library.saveListing([LibraryTests.post("https://blog.example/2024/05/b/")] + ["1", "22"].map { LibraryTests.post($0) }, server: other)
        #expect(try library.acrossFeeds.idPrefixLength(of: [blog, other]) == "https://blog.example/2024/05/a-".count)
        #expect(try library.acrossFeeds.idPrefixLength(of: [other]) == IDPrefix.minimum)
        let shown = "https://blog.example/2024/05/a-"
        var table = ""
        let run = ListRun(filter: PostFilter(), ordering: PostOrdering(), mode: .table)
        try run.stream(library, sources: [(blog, nil)], marks: false, width: 200, bold: false) { table += $0 }
        #expect(table.contains(shown + " ") && !table.contains("a-first-post") && table.contains("https://blog.example/2023/x/"), "\(table)")
        // Typed back, the shown start is the one entry.
        let cache = try home.cache(blog)
        #expect(try cache.lookUp(shown).id == long[0])
        var piped = ""
        try ListRun(filter: PostFilter(), ordering: PostOrdering(), mode: .tsv).stream(library, sources: [(blog, nil)], marks: false) { piped += $0 }
        #expect(piped.contains("https://blog.example/2024/05/a-first-post/\t"))
    }

    /// A source asked to stop is left at once; what was read stays read.
    @Test func aStopEndsTheReadAndAnErrorComesOut() throws {
        let (_, library, sources) = try Self.library(seed: 67)
        var seen = 0
        try library.eachEntry(of: sources, ordering: PostOrdering()) { _ in
            seen += 1
            return seen < 5
        }
        #expect(seen == 5)
        #expect(throws: ToolError.self) {
            try library.eachEntry(of: sources, ordering: PostOrdering()) { _ throws(ToolError) in throw .missing("stop") }
        }
    }
}
