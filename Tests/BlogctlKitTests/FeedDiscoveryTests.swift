import Testing
@testable import BlogctlKit
@testable import BlogctlEngines

/// Issue 49: a web page's feeds, as browsers find them.
@Suite struct FeedDiscoveryTests {
    @Test func linksNamedAlternateWithAFeedType() throws {
        let page = Array("""
            <!DOCTYPE html><html><head><title>Blog</title>
            <link rel="stylesheet" type="text/css" href="/style.css">
            <link rel="alternate" type="application/rss+xml" title="RSS &amp; more" href="/feed.rss">
            <link rel="Alternate  feed" type="application/atom+xml; charset=utf-8" href="https://other.example/atom">
            <link rel="alternate" type="text/html" hreflang="fr" href="/fr/">
            <link rel="alternate" type="application/feed+json" href="feed.json">
            <link rel="alternate" type="application/rss+xml" href="javascript:alert(1)">
            <link rel="alternate" type="application/rss+xml" href="/feed.rss">
            </head><body><a rel="alternate" type="application/rss+xml" href="/comments.rss">comments</a></body></html>
            """.utf8)
        let links = try FeedDiscovery.links(inHTML: page, url: "https://blog.example/posts/")
        #expect(links.map(\.url) == ["https://blog.example/feed.rss", "https://other.example/atom",
                                     "https://blog.example/posts/feed.json", "https://blog.example/comments.rss"])
        #expect(links[0].title == "RSS & more")
        #expect(links[1].type == "application/atom+xml")
    }

    @Test func aPageWithoutFeeds() throws {
        #expect(try FeedDiscovery.links(inHTML: Array("<p>nothing <a href='/x'>here</a></p>".utf8), url: "https://x.example/").isEmpty)
    }

    /// The first `<base href>` is the base of the links after it, itself read against the
    /// page; a later one, or one that is not http(s), changes nothing.
    @Test func aBaseElementIsTheLinksBase() throws {
        let page = Array("""
            <html><head><base href="/blog/en/"><base href="https://ignored.example/">
            <link rel="alternate" type="application/rss+xml" href="feed.rss">
            <link rel="alternate" type="application/atom+xml" href="/atom.xml">
            </head><body></body></html>
            """.utf8)
        #expect(try FeedDiscovery.links(inHTML: page, url: "https://blog.example/a/page.html").map(\.url)
                == ["https://blog.example/blog/en/feed.rss", "https://blog.example/atom.xml"])
        let hostile = Array("""
            <head><base href="javascript:alert(1)//"><link rel="alternate" type="application/rss+xml" href="feed.rss"></head>
            """.utf8)
        #expect(try FeedDiscovery.links(inHTML: hostile, url: "https://blog.example/a/").map(\.url) == ["https://blog.example/a/feed.rss"])
    }
}
