import Foundation
import Testing
import ToolboxKit
@testable import BlogctlKit

/// Issue 39: bodies are indexed whole, in chunks, so that a word anywhere in a long post is
/// found and its snippet comes from one chunk, not from the whole body.
@Suite struct ChunkedSearchTests {
    typealias TemporaryCache = PostCacheTests.TemporaryCache

    func post(_ id: String, _ title: String) -> PostMetadata {
        PostMetadata(id: id, title: title, publishDate: Date(timeIntervalSince1970: 1_533_000_000), postId: id, summary: "A note",
                     author: Author(name: "Ada Lovelace", image: "/a.jpg", title: "Writer"))
    }

    /// Seeded text of words, line ends, accented and CJK letters, and a few very long words.
    func text(_ bytes: Int, seed: UInt64) -> String {
        var random = SeededGenerator(seed: seed)
        let words = ["engine", "loom", "café", "ラーメン", "北京", "naïve", "card", "\n", "x" + String(repeating: "y", count: 9_000)]
        var result = ""
        while result.utf8.count < bytes {
            result += words[Int(random.next() % UInt64(words.count - 1))] + " "
            if random.next() % 500 == 0 { result += words.last! }
        }
        return result
    }

    @Test func chunksCoverTheTextAndSplitNoWordOrCharacter() {
        for seed in 1...20 as ClosedRange<UInt64> {
            let original = text(40_000 + Int(seed) * 997, seed: seed)
            let chunks = SearchChunker.chunks(original, size: 1_024)
            #expect(chunks.joined() == original, "seed \(seed)")
            for chunk in chunks.dropLast() {
                #expect(chunk.utf8.count <= 1_024)
                // Cut after a space or a line end unless a word is longer than half a chunk.
                #expect(chunk.last == " " || chunk.last == "\n" || chunk.hasSuffix("y"), "seed \(seed): \(chunk.suffix(12))")
                #expect(!chunk.unicodeScalars.contains("\u{FFFD}"), "seed \(seed): a character was cut")
            }
        }
        // Pieces of any size give the same chunks as the whole text.
        let whole = text(30_000, seed: 7)
        var pieces: [String] = []
        var chunker = SearchChunker(size: 1_024) { pieces.append($0) }
        var bytes = Array(whole.utf8)[...]
        var random = SeededGenerator(seed: 7)
        while !bytes.isEmpty {
            let count = min(Int(random.next() % 3_000), bytes.count)
            chunker.append(bytes.prefix(count))
            bytes = bytes.dropFirst(count)
        }
        chunker.finish()
        #expect(pieces == SearchChunker.chunks(whole, size: 1_024))
    }

    @Test func aWordAnywhereInALongBodyIsFoundWithASnippetFromItsChunk() throws {
        let temporary = TemporaryCache()
        let index = try temporary.cache.searchIndex()
        // Three MiB: the index kept only the first before, so the end was never found.
        let filler = text(3 << 20, seed: 3)
        try index.addBody(post("long", "Long"), text: "opening " + filler + " middleword " + filler + " closing finale")
        try index.addBody(post("short", "Short closing"), text: "A short body about looms.")
        #expect(try index.search(["opening"]).map(\.id) == ["long"])
        #expect(try index.search(["middleword"]).map(\.id) == ["long"])
        #expect(try index.search(["finale"]).map(\.id) == ["long"])
        // Words in chunks megabytes apart are both required, and both found.
        #expect(try index.search(["opening", "finale"]).map(\.id) == ["long"])
        #expect(try index.search(["opening", "nowhere"]).isEmpty)
        // A word in one post's title and another's body: each post must hold every word.
        #expect(try index.search(["closing", "looms"]).map(\.id) == ["short"])
        #expect(try index.search(["closing"]).map(\.id) == ["short", "long"], "a title ranks before a body")
        let hit = try #require(try index.search(["finale"], marks: ("<", ">")).first)
        // From one chunk (the filler's 9,000-byte words can make twelve tokens long).
        #expect(hit.snippet.contains("<finale>") && hit.snippet.utf8.count <= SearchChunker.size + 16, "\(hit.snippet)")
        let centred = try #require(try index.search(["middleword"], marks: ("<", ">"), centred: true).first)
        #expect(centred.field == "body" && centred.snippet.contains("<middleword>") && centred.snippet.count < 120, "\(centred)")
        // Unspaced words far into the body are found too, through their chunks.
        try index.addBody(post("cjk", "CJK"), text: filler + " 札幌味噌ラーメン " + filler)
        #expect(try index.search(["味噌ラーメン"]).map(\.id) == ["cjk"])
        #expect(try index.search(["札幌"]).map(\.id) == ["cjk"])
        let cjk = try #require(try index.search(["味噌"], marks: ("<", ">")).first)
        #expect(cjk.snippet.contains("<味噌>"), "\(cjk.snippet)")
        // A body removed takes every chunk with it; the listing stays.
        try index.removeBody("long")
        #expect(try index.search(["finale"]).isEmpty && index.bodyCount == 2)
        #expect(try index.search(["long"]).map(\.id) == ["long"])
        // Indexed again, a body replaces its chunks rather than adding to them.
        try index.addBody(post("short", "Short closing"), text: "Now about engines.")
        #expect(try index.search(["looms"]).isEmpty)
        #expect(try index.search(["engines"]).map(\.id) == ["short"])
    }
}
