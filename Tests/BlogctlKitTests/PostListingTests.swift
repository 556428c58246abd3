import Foundation
import Testing
import ToolboxKit
@testable import BlogctlKit

@Suite struct PostListingTests {
    let ordering = PostOrdering(grouping: .author, sorting: .date, utcOffset: { _ in 0 })

    @Test func pipedLinesHaveTheGroupColumnFirstOnlyWhenGrouped() {
        let grouped = PostListing.render(ordering.arrange(Fixtures.posts), grouped: true, mode: .tsv)
        let first = grouped.split(separator: "\n")[0].split(separator: "\t", omittingEmptySubsequences: false)
        #expect(first == ["Ada Lovelace", "a1", "2018-08-31T23:30:00Z", "Ada Lovelace", "zebra crossings", "Summary of zebra crossings"])
        let flat = PostListing.render(PostOrdering(utcOffset: { _ in 0 }).arrange(Fixtures.posts), grouped: false, mode: .tsv)
        let lines = flat.split(separator: "\n")
        #expect(lines.count == Fixtures.posts.count)
        #expect(lines.allSatisfy { $0.split(separator: "\t", omittingEmptySubsequences: false).count == 5 })
        #expect(lines[0].hasPrefix("a1\t"))
    }

    @Test func jsonIsTheMetadataInDisplayOrderWithItsGroup() throws {
        let json = PostListing.render(ordering.arrange(Fixtures.posts), grouped: true, mode: .json)
        let items = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
        #expect(items.map { $0["id"] as? String } == ["a1", "a2", "e1", "g1", "g2", "m2", "m1"])
        #expect(items[0]["group"] as? String == "Ada Lovelace")
        #expect((items[0]["author"] as? [String: Any])?["name"] as? String == "Ada Lovelace")
        #expect(items[0]["postId"] as? String == "a1")
        let flat = PostListing.render(ordering.arrange(Fixtures.posts), grouped: false, mode: .json)
        #expect(!flat.contains("\"group\""))
    }

    @Test func tableHasGroupHeadersWithCounts() {
        let table = PostListing.render(ordering.arrange(Fixtures.posts), grouped: true, mode: .table, width: 200, bold: false)
        let lines = table.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[0].hasPrefix("ID"))
        #expect(lines[1] == "Ada Lovelace (2)")
        #expect(lines[2].hasPrefix("a1"))
        #expect(table.contains("\n\nMargaret Hamilton (2)\n"))
    }

    /// Issue 65: grouped by feed, the table leaves out the FEED column that would repeat each
    /// group's header in every row; grouped otherwise, and in TSV, it stays.
    @Test func groupedByFeedTheFeedColumnGoes() {
        var posts = Fixtures.posts
        for index in posts.indices { posts[index].feed = index % 2 == 0 ? "Alpha feed" : "Beta feed" }
        let byFeed = PostOrdering(grouping: .feed).arrange(posts)
        let table = PostListing.render(byFeed, grouped: true, mode: .table, width: 200, bold: false)
        #expect(!table.contains("FEED") && table.contains("Alpha feed (") && !table.contains(" Alpha feed "), "\(table)")
        let byAuthor = PostListing.render(PostOrdering(grouping: .author).arrange(posts), grouped: true, mode: .table, width: 200, bold: false)
        #expect(byAuthor.hasPrefix("FEED"), "\(byAuthor)")
        let tsv = PostListing.render(byFeed, grouped: true, mode: .tsv)
        #expect(tsv.split(separator: "\n").allSatisfy { $0.split(separator: "\t", omittingEmptySubsequences: false).count == 7 })
    }

    @Test func serverTextIsSanitisedInEveryMode() {
        var post = Fixtures.posts[0]
        post.title = "Evil\u{1B}[2J title\u{9B}31m\ttab\nnewline"
        post.author.name = "Bad\u{07}Name"
        let groups = PostOrdering(grouping: .author).arrange([post])
        for mode in [OutputMode.tsv, .table] {
            let text = PostListing.render(groups, grouped: true, mode: mode, width: 200, bold: false)
            #expect(!text.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x9B || $0.value == 0x07 })
            #expect(text.split(separator: "\n").allSatisfy { !$0.isEmpty })
        }
        let tsv = PostListing.render(groups, grouped: true, mode: .tsv)
        #expect(tsv.split(separator: "\t").count == 6)
        // JSON keeps the text (escaped), for programs.
        #expect(PostListing.render(groups, grouped: true, mode: .json).contains("\\u001b"))
    }
}

/// Issue 38, item 7: narrow, the columns give way in the order a reader needs them.
extension PostListingTests {
    func header(_ width: Int) -> (header: String, first: String) {
        let arranged = PostOrdering(utcOffset: { _ in 0 }).arrange([Fixtures.post("x1", "The Complete Collected Letters, Unabridged",
                                                                                   "2018-08-30T18:00:00Z", "Edsger Dijkstra")])
        let lines = PostListing.render(arranged, grouped: false, mode: .table, isRead: { _ in false }, width: width, bold: false)
            .split(separator: "\n").map(String.init)
        return (lines[0], lines[1])
    }

    @Test func theSummaryGoesTheDateShortensThenTheTitleThenTheAuthor() {
        let wide = header(200)
        #expect(wide.header.contains("SUMMARY") && wide.first.contains("2018-08-30 18:00"))
        let eighty = header(80)
        #expect(eighty.header.contains("AUTHOR") && !eighty.header.contains("SUMMARY"), "the author stays at 80")
        #expect(eighty.first.contains("2018-08-30  Edsger Dijkstra"), "the date is its day, no …")
        #expect(eighty.first.hasSuffix("The Complete Collected Letters, Unabridged"))
        let forty = header(40)
        #expect(!forty.header.contains("AUTHOR"))
        #expect(forty.first.contains("2018-08-30  The Complete"), "the day stays before the title is cut")
        #expect(forty.first.hasSuffix("…") && forty.first.count <= 40)
    }
}
