import Foundation
import Testing
import ToolboxKit
@testable import BlogctlKit
@testable import BlogctlEngines

/// Issue 48: a body just downloaded is parsed once, for the reader and the search index
/// together; the index gets what `indexStored` would have given it, spooled past a MiB, and a
/// body whose parse did not run to its end is indexed on its own.
@Suite struct BodyIndexerTests {
    typealias TemporaryCache = PostCacheTests.TemporaryCache

    func stored(_ html: String, id: String = "7", in cache: PostCache, indexing: Bool) throws -> (PostMetadata, PostBody) {
        let metadata = PostCacheTests.metadata(id)
        let writer = try cache.bodyWriter()
        Array(html.utf8).withUnsafeBufferPointer { writer.write($0) }
        return (metadata, try writer.commit(metadata, etag: nil, indexing: indexing).body)
    }

    func hits(_ cache: PostCache, _ word: String) throws -> [String] {
        try cache.searchIndex().search([word], marks: ("[", "]")).map { $0.id + ":" + $0.snippet }
    }

    static let html = "<h1>Engines</h1><p>The <b>analytical</b> engine weaves algebraic patterns.</p>"
        + "<ul><li>cards</li><li>looms <a href='/x'>here</a></li></ul><table><tr><td>mill</td><td>store</td></tr></table>"

    @Test func oneParseIndexesWhatTheCacheWouldHave() throws {
        let shared = TemporaryCache(), alone = TemporaryCache()
        _ = try shared.cache.searchIndex()  // made now: a new index takes in every cached body
        let (metadata, body) = try stored(Self.html, in: shared.cache, indexing: false)
        _ = try stored(Self.html, in: alone.cache, indexing: true)
        #expect(try hits(shared.cache, "analytical").isEmpty, "not indexed before it is shown")
        let indexer = PostCache.BodyIndexer(cache: shared.cache, metadata: metadata, body: body)
        var page: [UInt8] = []
        try PostPage.render(metadata, body: body, options: RenderOptions(format: .text, width: 40, styled: false), indexing: indexer.parse) {
            page += $0
        }
        #expect(String(decoding: page, as: UTF8.self).contains("analytical"))
        indexer.finish()
        for word in ["analytical", "looms", "mill", "algebraic"] {
            #expect(try hits(shared.cache, word) == hits(alone.cache, word) && !hits(alone.cache, word).isEmpty, "\(word)")
        }
    }

    /// More than a MiB of text goes through the spool file; the word at the end is found.
    @Test func aLongBodyIsSpooledAndIndexedWhole() throws {
        let temporary = TemporaryCache()
        _ = try temporary.cache.searchIndex()
        let paragraph = "<p>" + String(repeating: "lorem ipsum dolor sit amet ", count: 40) + "</p>\n"
        let html = String(repeating: paragraph, count: 1_600) + "<p>zyzzyva at the very end</p>"
        let (metadata, body) = try stored(html, in: temporary.cache, indexing: false)
        let indexer = PostCache.BodyIndexer(cache: temporary.cache, metadata: metadata, body: body)
        try PostPage.render(metadata, body: body, options: RenderOptions(format: .text, width: 80, styled: false), indexing: indexer.parse) { _ in }
        indexer.finish()
        let found = try hits(temporary.cache, "zyzzyva")
        #expect(found.count == 1, "\(found)")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: temporary.cache.directory).filter { $0.contains("spool") }
        #expect(leftovers.isEmpty, "the spool is unlinked at once")
    }

    /// The reader quit (or the render failed, or the screen moved on): indexed on its own.
    @Test func aParseThatDidNotFinishIndexesTheBodyOnItsOwn() throws {
        let temporary = TemporaryCache()
        let (metadata, body) = try stored(Self.html, in: temporary.cache, indexing: false)
        do {  // dropped after the parse, unfinished
            let indexer = PostCache.BodyIndexer(cache: temporary.cache, metadata: metadata, body: body)
            try PostPage.render(metadata, body: body, options: RenderOptions(format: .text, width: 40, styled: false), indexing: indexer.parse) { _ in }
        }
        #expect(try hits(temporary.cache, "analytical").count == 1)
        let (other, html) = try stored(Self.html.replacingOccurrences(of: "analytical", with: "difference"), id: "8",
                                       in: temporary.cache, indexing: false)
        let indexer = PostCache.BodyIndexer(cache: temporary.cache, metadata: other, body: html)
        _ = try PostPage.render(other, body: html, options: RenderOptions(format: .html, width: 40, styled: false), indexing: indexer.parse) { _ in }
        indexer.finish()
        #expect(try hits(temporary.cache, "difference").map { $0.prefix(2) } == ["8:"], "HTML output parses nothing: indexed alone")
    }
}
