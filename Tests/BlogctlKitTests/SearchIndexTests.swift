import Foundation
import Testing
import SQLiteKit
import ToolboxKit
@testable import BlogctlKit

/// Issue 15: the search index follows the cache, ranks titles first, marks its snippets,
/// and is rebuilt rather than trusted when damaged.
@Suite struct SearchIndexTests {
    typealias TemporaryCache = PostCacheTests.TemporaryCache

    func post(_ id: String, _ title: String, author: String = "Ada Lovelace", summary: String = "A note") -> PostMetadata {
        PostMetadata(id: id, title: title, publishDate: Date(timeIntervalSince1970: 1_533_000_000), postId: id, summary: summary,
                     author: Author(name: author, image: "/a.jpg", title: "Writer"))
    }

    func ids(_ cache: PostCache, _ words: String...) throws -> [String] {
        try cache.searchIndex().search(words).map(\.id)
    }

    /// `list` saves its listing and indexes nothing; the first search after takes the listing
    /// in, a changed listing replaces what it had, and an unchanged one is not read into posts.
    @Test func theSavedListingIsIndexedAtTheNextSearch() throws {
        let temporary = TemporaryCache()
        let cache = temporary.cache
        try cache.saveListing([post("1", "Engines"), post("2", "Looms")])
        #expect(try cache.search(["looms"], limit: 10, marks: ("[", "]")).map(\.id) == ["2"])
        let fingerprint = try cache.searchIndex().listingFingerprint(source: cache.indexSource)
        #expect(fingerprint?.hasPrefix("library-") == true)
        try cache.saveListing([post("1", "Engines"), post("2", "Pianolas")])
        #expect(try cache.search(["looms"], limit: 10, marks: ("[", "]")).isEmpty)
        #expect(try cache.search(["pianolas"], limit: 10, marks: ("[", "]")).map(\.id) == ["2"])
        #expect(try cache.searchIndex().listingFingerprint(source: cache.indexSource) != fingerprint)
    }

    /// Issue 63: one index holds every source (each server and feed); a search covers the
    /// sources it is asked for, a post of one never shows in another's, and an index made anew
    /// takes each source's cached bodies in again at its first use.
    @Test func oneIndexHoldsEverySourceAndASearchCoversTheSourcesAsked() throws {
        let temporary = TemporaryCache()
        let first = temporary.cache
        let owner = try #require(first.owner)
        let second = PostCache(directory: temporary.root + "/second/posts", capacity: PostCache.defaultCapacity,
                               owner: .init(server: try ServerURL("http://127.0.0.1:10/feed.xml", allowingQuery: true),
                                            environment: owner.environment))
        #expect(first.indexPath == second.indexPath)
        #expect(first.indexSource != second.indexSource)
        try first.saveListing([post("1", "Engines")])
        try second.saveListing([post("1", "Engines of the second"), post("2", "Looms")])
        try second.store(post("2", "Looms"), body: Array("<p>Bernoulli numbers.</p>".utf8), etag: nil)
        func found(_ cache: PostCache, _ word: String) throws -> [String] {
            try cache.search([word], limit: 10, marks: ("[", "]")).map { $0.source + "/" + $0.id }
        }
        #expect(try found(first, "engines") == [first.indexSource + "/1"])
        #expect(try found(second, "engines") == [second.indexSource + "/1"])
        #expect(try found(first, "bernoulli") == [])
        #expect(try found(second, "bernoulli") == [second.indexSource + "/2"])
        let everywhere = try first.searchIndex().search(["engines"]).map(\.source)
        #expect(Set(everywhere) == [first.indexSource, second.indexSource])
        try FileManager.default.removeItem(atPath: first.indexPath)
        #expect(try found(second, "bernoulli") == [second.indexSource + "/2"])
        #expect(try found(first, "engines") == [first.indexSource + "/1"])
    }

    @Test func bodiesAreIndexedWhenCachedAndForgottenWhenEvictedOrCleared() throws {
        let temporary = TemporaryCache()
        let cache = temporary.cache
        try cache.searchIndex().addListing([post("1", "Engines"), post("2", "Looms")], source: cache.indexSource)
        #expect(try ids(cache, "bernoulli") == [])
        try cache.store(post("1", "Engines"), body: Array("<p>The <b>Bernoulli</b> numbers, by the engine.</p>".utf8), etag: nil)
        try cache.store(post("2", "Looms"), body: Array("<p>Punched cards <script>bernoulli()</script>weave.</p>".utf8), etag: nil)
        // Rendered text, not tags or scripts: only the first body has the word.
        #expect(try ids(cache, "bernoulli") == ["1"])
        #expect(try ids(cache, "punched", "cards") == ["2"])
        #expect(try ids(cache, "script") == [])
        cache.remove("1")
        #expect(try ids(cache, "bernoulli") == [])
        // The listing stays searchable after its body goes.
        #expect(try ids(cache, "engines") == ["1"])
        try cache.clear()
        #expect(try ids(cache, "punched") == [])
        #expect(try ids(cache, "looms") == ["2"])
    }

    @Test func evictedBodiesLeaveTheIndex() throws {
        let temporary = TemporaryCache(capacity: 30_000)
        let cache = temporary.cache
        for index in 1...4 {
            // Random letters hardly compress: each entry takes most of the capacity.
            let body = Array("<p>unique\(index)</p><p>".utf8) + PostCacheTests.body(30_000, seed: UInt64(index)) + Array("</p>".utf8)
            try cache.store(post("\(index)", "Post \(index)"), body: body, etag: nil)
            PostCacheTests.setLastUsed(cache, "\(index)", 1_000 + index)
        }
        let kept = Set(cache.entries().map(\.metadata.id))
        #expect(kept.count < 4)
        for index in 1...4 {
            #expect(try ids(cache, "unique\(index)") == (kept.contains("\(index)") ? ["\(index)"] : []), "\(index)")
        }
    }

    @Test func titlesRankFirstWordsAreAllRequiredAndPrefixesMatch() throws {
        let temporary = TemporaryCache()
        let cache = temporary.cache
        let index = try cache.searchIndex()
        try index.addListing([post("t", "Recursion explained"), post("s", "Loops", summary: "On recursion and loops"),
                              post("a", "Stacks", author: "Recursion Fan"), post("n", "Nothing here")])
        try index.addBody(post("b", "Trees"), text: "Trees grow by recursion, and recursion by trees.")
        #expect(try index.search(["recursion"]).map(\.id) == ["t", "a", "s", "b"])
        #expect(try index.search(["recurs"]).count == 4)
        // One letter matches only itself, not every word it starts.
        try index.addListing([post("c", "The C language")])
        #expect(try index.search(["c"]).map(\.id) == ["c"])
        #expect(try index.search(["r"]).isEmpty)
        #expect(try index.search(["recursion", "loops"]).map(\.id) == ["s"])
        #expect(try index.search(["RÉCURSION"]).count == 4)  // case and accents ignored
        // Query syntax in the words is just text.
        #expect(try index.search(["recursion\" OR \"nothing"]).isEmpty)
        #expect(try index.search(["NEAR(", "*", "-"]).isEmpty)
        let hit = try #require(try index.search(["grow"], marks: ("<", ">")).first)
        #expect(hit.snippet.contains("<grow>") && hit.cached)
    }

    @Test func listingAgainReindexesOnlyWhatChanged() throws {
        let temporary = TemporaryCache()
        let index = try temporary.cache.searchIndex()
        let posts = (1...300).map { post("p\($0)", "Post \($0)") }
        try index.addListing(posts)
        for number in stride(from: 1, through: 300, by: 3) {
            try index.addBody(posts[number - 1], text: "Body \(number) about looms and engines.")
        }
        // A listing seen before rewrites no row (each used to re-index its body, every `list`).
        let before = index.changeCount
        try index.addListing(posts)
        #expect(index.changeCount == before + 1, "no post rewritten: only the listing's fingerprint noted")
        try index.addListing(posts)
        #expect(index.changeCount == before + 1, "the same listing again: nothing at all")
        // A changed title is taken, and the post keeps its indexed body.
        try index.addListing([post("p4", "Renamed difference engine")])
        #expect(try index.search(["renamed", "looms"]).map(\.id) == ["p4"])
        #expect(try index.search(["looms"], limit: 1_000).count == 100)
        #expect(index.postCount == 300)
        try index.removeBody("p4")
        #expect(try index.search(["renamed"]).map(\.id) == ["p4"])
        // The same listing again is one lookup (its fingerprint); a body stored with other
        // fields than the listing's makes the next listing compared again, and taken.
        let listing = posts.map { $0.id == "p4" ? post("p4", "Renamed difference engine") : $0 }
        try index.addListing(listing)
        try index.addBody(post("p8", "Retitled by the post itself"), text: "Body of eight.")
        #expect(try index.search(["retitled"]).map(\.id) == ["p8"])
        try index.addListing(listing)
        #expect(try index.search(["retitled"]).isEmpty && index.search(["eight"]).map(\.id) == ["p8"])
        #expect(try index.search(["looms"], limit: 1_000).count == 99)
    }

    @Test func anUpdateCostsTheSameWhateverTheIndexHolds() throws {
        // Looking a post up by its id column made FTS5 read every row: an update's work grew
        // with the index (a `list` of 10,000 cached posts never ended). Every statement an
        // update runs must reach `posts` by rowid, as SQLite plans it.
        let temporary = TemporaryCache()
        let index = try temporary.cache.searchIndex()
        for sql in SearchIndex.SQL.perPost {
            let plan = try index.plan(sql)
            #expect(!plan.contains { $0.contains("SCAN posts") && !$0.contains(":=") && !$0.contains("INDEX 0:=") }, "\(sql): \(plan)")
            #expect(!plan.contains { ($0.contains("SCAN chunks") || $0.contains("SCAN gramchunks")) && $0.hasSuffix("INDEX 0:") },
                    "\(sql): \(plan)")
            #expect(!plan.contains { $0.hasPrefix("SCAN ids") || $0.hasPrefix("SCAN cached") }, "\(sql): \(plan)")
        }
        // A statement that does read every row is seen as such (the check can fail).
        #expect(try index.plan("SELECT title FROM posts WHERE id = ?").contains { $0.contains("SCAN posts") && !$0.contains(":=") })
        #expect(try index.plan("DELETE FROM chunks WHERE text = ?").contains { $0.contains("SCAN chunks") && $0.hasSuffix("INDEX 0:") })
    }

    @Test func aDamagedIndexIsRebuiltFromTheCache() throws {
        let temporary = TemporaryCache()
        let cache = temporary.cache
        try cache.store(post("1", "Engines"), body: Array("<p>analytical engine</p>".utf8), etag: nil)
        try "not a database at all".write(toFile: cache.indexPath, atomically: true, encoding: .utf8)
        let index = try cache.searchIndex()
        #expect(index.rebuilt)
        #expect(try index.search(["analytical"]).map(\.id) == ["1"])
        // A symlink in its place is not followed: it is replaced by a new index.
        try FileManager.default.removeItem(atPath: cache.indexPath)
        try FileManager.default.createSymbolicLink(atPath: cache.indexPath, withDestinationPath: temporary.root + "/elsewhere")
        #expect(try cache.searchIndex().search(["analytical"]).map(\.id) == ["1"])
        #expect(!FileManager.default.fileExists(atPath: temporary.root + "/elsewhere"))
        #expect(LocalFile.isRegularFile(cache.indexPath))
    }

    /// Issue 29: FTS5 quoting works on scalars, words are bounded, marks are only marks, and an
    /// index whose `posts` is not the FTS5 table is rebuilt, not trusted.
    @Test func aQuoteFusedWithACombiningMarkIsStillQuoted() throws {
        let temporary = TemporaryCache()
        let cache = temporary.cache
        try cache.searchIndex().addListing([post("1", "Engines \u{E000}bold\u{E001}")])
        for word in ["a\"\u{301}", "\"\u{301}", "x\"\u{301}\" OR y", "NEAR(a b)", "\u{301}\""] {
            #expect(throws: Never.self) { _ = try cache.searchIndex().search([word]) }
        }
        #expect(try SearchQuery.fts5(["a\"\u{301}"]) == "\"a\"\"\u{301}\"*")
        #expect(try SearchQuery.fts5(["same", "same", "SAME"])?.components(separatedBy: " ").count == 2)
        #expect(throws: ToolError.self) { try SearchQuery.fts5((0...SearchQuery.wordLimit).map { "w\($0)" }) }
        let hit = try #require(try cache.searchIndex().search(["engines"]).first)
        #expect(!hit.title.contains("\u{E000}") && !hit.snippet.contains("\u{E000}bold"))
    }

    @Test func anIndexWhosePostsTableIsNotFTSIsRebuilt() throws {
        let temporary = TemporaryCache()
        let cache = temporary.cache
        try cache.searchIndex().addListing([post("1", "Engines")])
        let path = try cache.searchIndex().path
        let other = try SQLiteFile(path)
        try other.executeAlone("DROP TABLE posts")
        try other.executeAlone("CREATE TABLE posts(id, title, author, summary, body)")
        other.close()
        let reopened = try SearchIndex(path: path)
        #expect(reopened.rebuilt)
        #expect(throws: Never.self) { _ = try reopened.search(["engines"]) }
    }
}
