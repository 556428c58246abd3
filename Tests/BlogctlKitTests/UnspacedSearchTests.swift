import Foundation
import TestSupport
import Testing
import ToolboxKit
@testable import BlogctlKit

/// Issue 39: words in scripts written without spaces are found inside the runs they sit in,
/// in titles, summaries and bodies: Japanese, Chinese, Thai, and with English around them.
@Suite struct UnspacedSearchTests {
    typealias TemporaryCache = PostCacheTests.TemporaryCache

    func post(_ id: String, _ title: String, summary: String = "A note") -> PostMetadata {
        PostMetadata(id: id, title: title, publishDate: Date(timeIntervalSince1970: 1_533_000_000), postId: id, summary: summary,
                     author: Author(name: "Ada Lovelace", image: "/a.jpg", title: "Writer"))
    }

    func ids(_ cache: PostCache, _ words: String...) throws -> [String] {
        try cache.searchIndex().search(words).map(\.id)
    }

    @Test func japaneseChineseAndThaiWordsAreFoundInsideTheirRuns() throws {
        let temporary = TemporaryCache()
        let cache = temporary.cache
        try cache.searchIndex().addListing([
            post("ja", "東京のラーメン店を巡る"),
            post("zh", "我在北京大学学习", summary: "关于计算机科学的笔记"),
            post("th", "ภาษาไทยสวัสดีครับ"),
            post("en", "Ramen in English only"),
        ])
        #expect(try ids(cache, "ラーメン") == ["ja"])
        #expect(try ids(cache, "巡る") == ["ja"], "two characters: a whole word in Japanese")
        #expect(try ids(cache, "北京大学") == ["zh"])
        #expect(try ids(cache, "北京") == ["zh"], "two characters: a whole word in Chinese")
        #expect(try ids(cache, "计算机") == ["zh"], "in the summary")
        #expect(try ids(cache, "สวัสดี") == ["th"])
        #expect(try ids(cache, "ラーメン", "北京") == [], "every word must match")
        #expect(try ids(cache, "ramen") == ["en"])
        #expect(try ids(cache, "上海") == [])
        // A body: the rendered text's runs are indexed too, and the snippet shows the match.
        try cache.store(post("en", "Ramen in English only"), body: Array("<p>Best bowl: 札幌味噌ラーメン, in Sapporo.</p>".utf8), etag: nil)
        #expect(try ids(cache, "味噌") == ["en"])
        let hits = try cache.searchIndex().search(["味噌ラーメン"], marks: ("[", "]"))
        #expect(hits.map(\.id) == ["en"])
        #expect(hits.first?.snippet.contains("[味噌ラーメン]") == true, "\(hits)")
        // Mixed: an English word and a Japanese one, both required.
        #expect(try ids(cache, "sapporo", "味噌") == ["en"])
        #expect(try ids(cache, "ramen", "北京") == [])
        // Gone from the cache, gone from the search.
        cache.remove("en")
        #expect(try ids(cache, "味噌") == [])
        #expect(try ids(cache, "ラーメン") == ["ja"])
    }

    @Test func onlyTheRunsOfUnspacedScriptsAreKeptAgain() {
        #expect(UnspacedScript.runs("Hello world") == "", "an English post costs the second index nothing")
        #expect(UnspacedScript.runs("Tokyo 東京 and ラーメン!") == "東京 ラーメン")
        #expect(UnspacedScript.contains("한국어") && UnspacedScript.contains("ภาษา") && !UnspacedScript.contains("café"))
        #expect(SearchGrams.SplitQuery(["ramen ラーメン", "北京"]).spaced == ["ramen"])
        #expect(SearchGrams.SplitQuery(["ramen ラーメン", "北京"]).long == ["ラーメン"])
        #expect(SearchGrams.SplitQuery(["ramen ラーメン", "北京"]).short == ["北京"])
        // Issue 63: a run is what the index holds, unspaced scripts alone: LIKE's wildcards,
        // punctuation and marks end it, as they end the index's runs.
        #expect(SearchGrams.SplitQuery(["北%"]).shortPatterns == ["%北%"])
        #expect(SearchGrams.SplitQuery(["(大阪)", "東京。"]).short == ["大阪", "東京"])
        #expect(SearchGrams.SplitQuery(["(大阪)", "東京。"]).spaced == [])
        #expect(SearchGrams.SplitQuery(["D隚"]).spaced == ["D隚"], "a word mixing scripts is one token of the word index")
    }
}

/// Issue 46: the outside fuzzing campaign's search findings, each as a user meets it.
@Suite struct SearchFuzzFindingsTests {
    typealias TemporaryCache = PostCacheTests.TemporaryCache

    func post(_ id: String, _ title: String) -> PostMetadata {
        PostMetadata(id: id, title: title, publishDate: Date(timeIntervalSince1970: 1_533_000_000), postId: id, summary: "A note",
                     author: Author(name: "Ada Lovelace", image: "/a.jpg", title: "Writer"))
    }

    @Test func mixedScriptsMarksEmojiAndQuotesAreFoundOrHarmless() throws {
        let temporary = TemporaryCache()
        let cache = temporary.cache
        try cache.searchIndex().addListing([post("mixed", "iPhone專用 case"), post("party", "Release 🎉 party"), post("cafe", "A café in town"),
                                            post("quote", "東\"\u{301}京駅 story"), post("under", "a_b x")])
        func ids(_ words: String...) throws -> [String] { try cache.searchIndex().search(words).map(\.id) }
        #expect(try ids("iPhone專用") == ["mixed"], "a word mixing scripts, as the title writes it")
        #expect(try ids("🎉") == ["party"])
        #expect(try ids("café", "\u{36D}") == ["cafe"], "a word of marks alone sinks nothing")
        #expect(throws: Never.self) { _ = try ids("東\"\u{301}京駅") }
        // `_` followed by a combining mark is still a LIKE wildcard: escaped where it could
        // reach a pattern, and it never does (a run holds unspaced scripts alone).
        #expect(SearchGrams.SplitQuery(["北_"]).shortPatterns == ["%北%"])
        #expect("北_\u{301}".escapingScalars(["_": "\\_"]) == "北\\_\u{301}")
        #expect(SearchGrams.SplitQuery(["東\"\u{301}京駅"]).short == ["東", "京駅"])
        #expect(try ids("東\"\u{301}京駅") == ["quote"])
    }
}

/// Issue 63: a post's exact title finds it, whatever mixes its scripts and punctuation
/// (`東京。`, `(大阪)`, `D隚`, a combining mark after a quote), checked against a plain
/// substring scan of the same posts: seeded titles, each searched as typed.
@Suite struct ExactTitleSearchTests {
    @Test func everyTitleFindsItsPostAndOnlyPostsThatHoldItsWords() throws {
        let temporary = PostCacheTests.TemporaryCache()
        var generator = SeededGenerator(seed: 6_303)
        let pieces = ["東京", "。", "(", ")", "大阪", "D", "隚", "\"", "\u{301}", "「", "」", "、", "ラーメン", "店", "x", "Ab", "7",
                      "-", "'", "ภาษา", "한국어", "🎉", "e", " ", "café", ".", "_", "北"]
        var titles: [String] = ["東京。", "(大阪)", "D隚", "隚D", "東\"\u{301}京", "「ラーメン」店", "café東京"]
        for _ in 0..<300 {
            titles.append((0..<Int.random(in: 1...6, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined())
        }
        let posts = titles.enumerated().map { number, title in
            PostMetadata(id: "p\(number)", title: title, publishDate: nil, postId: "p\(number)", summary: "",
                         author: Author(name: "", image: "", title: ""))
        }
        let index = try temporary.cache.searchIndex()
        try index.addListing(posts)
        for post in posts {
            let words = post.title.split(separator: " ").map(String.init)
            // A title with no letter, digit or character of an unspaced script is no search.
            guard words.contains(where: { $0.unicodeScalars.contains { $0.properties.isAlphabetic || $0.properties.numericType != nil
                                                                     || UnspacedScript.contains($0) } }) else { continue }
            let hits = try index.search(words, limit: 1000).map(\.id)
            #expect(hits.contains(post.id), "\(post.title.debugDescription) does not find its post")
            // Each hit holds every run of the unspaced scripts the title holds (a substring scan).
            let runs = words.flatMap { UnspacedScript.runs($0).split(separator: " ").map { Array($0.unicodeScalars) } }
            for hit in hits {
                // By scalars: `京` followed by a combining mark is still `京` to the index.
                let title = Array(posts.first { $0.id == hit }!.title.unicodeScalars)
                let holds = runs.allSatisfy { run in title.indices.contains { title[$0...].starts(with: run) } }
                #expect(holds, "\(post.title.debugDescription) found \(String(String.UnicodeScalarView(title)).debugDescription)")
            }
        }
    }
}
