import Foundation
import Testing
import ToolboxKit
@testable import BlogctlKit

@Suite struct PostOrderingTests {
    static let combinations: [(PostGrouping, PostSorting, Bool)] = PostGrouping.allCases.flatMap { grouping in
        PostSorting.allCases.flatMap { sorting in [false, true].map { (grouping, sorting, $0) } }
    }

    /// The rule, written independently of the implementation: the key of each sort, compared
    /// case-insensitively for text, newest first for dates.
    static func before(_ a: PostMetadata, _ b: PostMetadata, _ sorting: PostSorting) -> Bool? {
        switch sorting {
        case .date:
            // Newest first; a post of unknown date after every dated one.
            switch (a.publishDate, b.publishDate) {
            case (nil, nil): return nil
            case (nil, _): return false
            case (_, nil): return true
            case let (x?, y?): return x == y ? nil : x > y
            }
        case .title: return a.title.lowercased() == b.title.lowercased() ? nil : a.title.lowercased() < b.title.lowercased()
        case .author:
            return a.author.name.lowercased() == b.author.name.lowercased() ? nil : a.author.name.lowercased() < b.author.name.lowercased()
        }
    }


    /// Issue 39: sorting positions by keys made once gives the order the post comparison
    /// gives, ties (same date, titles differing only in case, the same id twice) included.
    @Test func keyedSortingMatchesThePostComparison() {
        var random = SeededGenerator(seed: 39)
        let titles = ["apple", "Apple", "banana", "Banana", "cherry", "apple"]
        let posts = (0..<400).map { number in
            let pick = { (count: Int) in Int(random.next() % UInt64(count)) }
            var post = Fixtures.post("p\(pick(120))", titles[pick(titles.count)], "2018-0\(1 + pick(3))-01T00:00:00Z",
                                     ["Ada", "ada", "Bob"][pick(3)])
            // A feed's entry whose date could not be read.
            if pick(6) == 0 { post.publishDate = nil }
            return post
        }
        for sorting in PostSorting.allCases {
            for reversed in [false, true] {
                let ordering = PostOrdering(sorting: sorting, reversed: reversed, utcOffset: { _ in 0 })
                let expected = Array(posts.indices).sorted { ordering.inGroupOrder(posts[$0], posts[$1]) }
                let sorted = ordering.sortedPositions(posts, Array(posts.indices))
                #expect(sorted.map { posts[$0].id } == expected.map { posts[$0].id }, "\(sorting) reversed \(reversed)")
                #expect(sorted.map { posts[$0].title } == expected.map { posts[$0].title }, "\(sorting) reversed \(reversed)")
            }
        }
    }

    /// Issue 49: a post of unknown date sorts after every dated one, newest first, and is
    /// grouped under "Unknown date", the last month; a date range leaves it out.
    @Test func anUnknownDateIsLastAndItsOwnGroup() {
        var undated = Fixtures.post("u1", "Undated", "2018-08-01T00:00:00Z", "Ada")
        undated.publishDate = nil
        let posts = Fixtures.posts + [undated]
        let ordering = PostOrdering(grouping: .none, sorting: .date, utcOffset: { _ in 0 })
        #expect(ordering.arrange(posts)[0].posts.last?.id == "u1")
        let months = PostOrdering(grouping: .month, sorting: .date, utcOffset: { _ in 0 }).arrange(posts)
        #expect(months.last?.name == "Unknown date" && months.last?.posts.map(\.id) == ["u1"])
        #expect(PostOrdering(grouping: .none, sorting: .date, reversed: true, utcOffset: { _ in 0 }).arrange(posts)[0].posts.first?.id == "u1")
        let ranged = PostFilter(since: Date(timeIntervalSince1970: 0))
        #expect(!ranged.keeps(undated, isRead: false))
        #expect(PostFilter().keeps(undated, isRead: false))
    }

    @Test(arguments: 0..<PostOrderingTests.combinations.count)
    func everyGroupingSortingAndDirection(_ index: Int) {
        let (grouping, sorting, reversed) = Self.combinations[index]
        let ordering = PostOrdering(grouping: grouping, sorting: sorting, reversed: reversed, utcOffset: { _ in 0 })
        let groups = ordering.arrange(Fixtures.posts.shuffled())
        // Every post appears exactly once.
        #expect(groups.flatMap(\.posts).map(\.id).sorted() == Fixtures.posts.map(\.id).sorted())
        // Group headers in their order.
        switch grouping {
        case .none:
            #expect(groups.map(\.name) == [""])
        case .author:
            #expect(groups.map(\.name) == ["Ada Lovelace", "Edsger Dijkstra", "grace Hopper", "Margaret Hamilton"])
        case .month:
            #expect(groups.map(\.name) == ["August 2018", "July 2018", "June 2018"])
            #expect(groups[0].posts.map(\.id).sorted() == ["a1", "e1", "m2"])
        case .feed, .tag:
            // Posts of no subscribed feed: one group.
            #expect(groups.map(\.name) == [""])
        }
        // Inside each group, each neighbour pair in the chosen order (flipped by --reverse);
        // ties broken by id, so the output never depends on the server's order; --reverse flips it all.
        for group in groups {
            for (a, b) in zip(group.posts, group.posts.dropFirst()) {
                if let order = Self.before(a, b, sorting) {
                    #expect(order != reversed, "\(a.id) before \(b.id) in \(grouping)/\(sorting)/reversed=\(reversed)")
                } else {
                    #expect((a.id < b.id) != reversed, "tie \(a.id) \(b.id)")
                }
            }
        }
    }

    @Test func sameInputInAnyOrderGivesTheSameOutput() {
        let ordering = PostOrdering(grouping: .author, sorting: .title, utcOffset: { _ in 0 })
        let first = ordering.arrange(Fixtures.posts)
        for _ in 0..<20 { #expect(ordering.arrange(Fixtures.posts.shuffled()) == first) }
    }

    @Test func monthsFollowTheReadersZone() {
        // 2018-08-31T23:30Z is already September east of UTC; 2018-06-30T23:59:59Z July.
        let east = PostOrdering(grouping: .month, utcOffset: { _ in 3600 }).arrange(Fixtures.posts)
        #expect(east.map(\.name) == ["September 2018", "August 2018", "July 2018", "June 2018"])
        #expect(east[2].posts.map(\.id).contains("m1"))
        let utc = PostOrdering(grouping: .month, utcOffset: { _ in 0 }).arrange(Fixtures.posts)
        #expect(utc.last!.posts.map(\.id).sorted() == ["a2", "m1"])
    }

    /// The in-place permutation `arrange` uses for one group, against copying by position:
    /// random orders of random lengths, every cycle shape (fixed points, one long cycle, many).
    @Test func permutingInPlaceIsCopyingByPosition() {
        var random = SeededGenerator(seed: 61)
        for round in 0..<500 {
            let count = round < 3 ? round : Int.random(in: 0...200, using: &random)
            let items = (0..<count).map { "item \($0) " + String(repeating: "x", count: $0 % 20) }
            var order = Array(0..<count)
            if round % 5 != 0 { order.shuffle(using: &random) }
            var permuted = items
            permuted.permute(to: order)
            #expect(permuted == order.map { items[$0] }, "round \(round)")
        }
    }

    /// Not grouped, the posts are ordered in place: the same groups as copying each by position.
    @Test(arguments: PostSorting.allCases)
    func oneGroupInPlaceIsTheCopiedOrder(_ sorting: PostSorting) {
        var random = SeededGenerator(seed: 67)
        for reversed in [false, true] {
            let ordering = PostOrdering(grouping: .none, sorting: sorting, reversed: reversed, utcOffset: { _ in 0 })
            let posts = (Fixtures.posts + Fixtures.posts.map { post in
                var copy = post
                copy.id += "-2"
                return copy
            }).shuffled(using: &random)
            let positions = ordering.arrangePositions(posts)
            #expect(ordering.arrange(posts) == positions.map { PostGroup(name: $0.name, posts: $0.positions.map { posts[$0] }) })
        }
    }

    @Test func emptyListHasNoGroups() {
        #expect(PostOrdering(grouping: .author).arrange([]) == [])
        #expect(PostOrdering(grouping: .none).arrange([]) == [PostGroup(name: "", posts: [])])
    }
}
