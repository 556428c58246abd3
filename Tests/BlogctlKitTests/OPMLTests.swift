import FoundationEssentials
import Testing
@testable import BlogctlKit
import CoreKit
import TestSupport
@testable import BlogctlEngines

/// Issue 49: subscription lists as OPML 1.0 and 2.0 write them, folders kept as tags.
@Suite struct OPMLTests {
    @Test func foldersBecomeTags() throws {
        let list = try OPML.read(Data("""
            <?xml version="1.0"?>
            <opml version="1.0"><head><title>mine</title></head><body>
              <outline text="Top" xmlUrl="https://top.example/feed"/>
              <outline title="ignored when there is a text" text="Tech">
                <outline text="Swift &amp; co" type="rss" xmlURL="https://swift.example/atom.xml" htmlUrl="https://swift.example/"/>
                <outline text="Deeper"><outline text="Deep" xmlurl=" https://deep.example/rss "/></outline>
              </outline>
              <outline text="no feed here"/>
              <outline text="not the web" xmlUrl="javascript:alert(1)"/>
              <outline text="again" xmlUrl="https://top.example/feed"/>
            </body></opml>
            """.utf8))
        #expect(list.subscriptions == [
            Subscription(url: "https://top.example/feed", title: "Top"),
            Subscription(url: "https://swift.example/atom.xml", title: "Swift & co", tags: ["Tech"], site: "https://swift.example/"),
            // A nested folder is one tag, its path, as newsboat names it.
            Subscription(url: "https://deep.example/rss", title: "Deep", tags: ["Tech/Deeper"]),
        ])
        #expect(list.skipped == 1)
    }

    /// Issue 65: folders inside folders survive an import then an export: each path is
    /// written as nested outlines, and read back as the same path.
    @Test func nestedFoldersRoundTrip() throws {
        let subscriptions = [
            Subscription(url: "https://top.example/feed", title: "Top"),
            Subscription(url: "https://v.example/feed", title: "Video", tags: ["Tech/Dev Video"]),
            Subscription(url: "https://t.example/feed", title: "Tech news", tags: ["Tech"]),
            Subscription(url: "https://d.example/feed", title: "Deep", tags: ["Tech/Dev Video/Deep"]),
            Subscription(url: "https://c.example/feed", title: "Cooking", tags: ["Food"]),
        ]
        let written = OPML.write(subscriptions)
        #expect(written.contains("<outline text=\"Tech\">\n      <outline type=\"rss\" text=\"Tech news\""), "\(written)")
        #expect(written.contains("\n      <outline text=\"Dev Video\">\n        <outline type=\"rss\" text=\"Video\""), "\(written)")
        let read = try OPML.read(Data(written.utf8)).subscriptions
        #expect(Set(read.map { $0.url + " " + $0.tags.joined(separator: ",") }) == Set(subscriptions.map { $0.url + " " + $0.tags.joined(separator: ",") }))
    }

    /// Issue 65: an outline's `htmlUrl` (the feed's site) is read, absolute and http(s) only,
    /// and written back: a list read then written keeps it; a site that is no web address,
    /// or a user and password in one, never reaches the export.
    @Test func sitesRoundTrip() throws {
        let list = try OPML.read(Data("""
            <opml version="2.0"><body>
              <outline text="A" xmlUrl="https://a.example/feed" htmlUrl="https://a.example/"/>
              <outline text="B" xmlUrl="https://b.example/feed" htmlUrl="/blog/"/>
              <outline text="C" xmlUrl="https://c.example/feed" htmlUrl="javascript:alert(1)"/>
              <outline text="D" xmlUrl="https://d.example/feed" htmlUrl="https://u:p@d.example/"/>
            </body></opml>
            """.utf8), url: "https://lists.example/mine.opml")
        #expect(list.subscriptions.map(\.site) == ["https://a.example/", "https://lists.example/blog/", nil, "https://d.example/"])
        let written = OPML.write(list.subscriptions)
        #expect(written.contains("xmlUrl=\"https://a.example/feed\" htmlUrl=\"https://a.example/\"/>"), "\(written)")
        #expect(!written.contains("javascript") && !written.contains("u:p@"), "\(written)")
        #expect(try OPML.read(Data(written.utf8)).subscriptions == list.subscriptions)
        // A site given by the caller (the library's) that is not http(s) is left out.
        #expect(!OPML.write([Subscription(url: "https://e.example/feed", title: "E")], site: { _ in "gopher://e.example/" }).contains("htmlUrl"))
    }

    /// Import then export through the library: the sites an OPML file gave are written back,
    /// and a feed's own link, once fetched, takes the place of an imported one.
    @Test func importThenExportKeepsSites() throws {
        let home = LibraryTests.Home()
        let file = home.root + "/mine.opml"
        try FileManagerless.write(file, """
            <opml version="2.0"><body><outline text="Tech">
              <outline text="A" xmlUrl="https://a.example/feed" htmlUrl="https://a.example/"/>
              <outline text="B" xmlUrl="https://b.example/feed"/>
            </outline></body></opml>
            """)
        _ = try SubscriptionImport.run(file, environment: home.environment)
        let subscriptions = try Subscriptions.standard(environment: home.environment).load { _ in }
        func site(_ subscription: Subscription) -> String? {
            FeedHealth.site(server: try! ServerURL(subscription.url, allowingQuery: true), environment: home.environment)
        }
        let exported = OPML.write(subscriptions, site: site)
        #expect(try OPML.read(Data(exported.utf8)).subscriptions == [
            Subscription(url: "https://a.example/feed", title: "A", tags: ["Tech"], site: "https://a.example/"),
            Subscription(url: "https://b.example/feed", title: "B", tags: ["Tech"]),
        ])
        // The feed's own link, once a refresh has it, is the site.
        let library = try home.library()
        try library.update(try ServerURL("https://a.example/feed", allowingQuery: true)) { $0.siteURL = "https://a.example/home" }
        #expect(OPML.write(subscriptions, site: site).contains("htmlUrl=\"https://a.example/home\""))
    }

    /// Issue 65: an outline is named by its `text` (OPML 2.0, newsboat), by `title` when it has
    /// none; a feed named by `url=` (as some exporters write it) is read, a link's or an
    /// include's `url` is not a feed; a file with no `<body>` is refused, not imported as empty.
    @Test func textNamesAnOutlineAndURLNamesAFeed() throws {
        let list = try OPML.read(Data("""
            <opml version="2.0"><body>
              <outline title="Folder by title"><outline type="rss" text="" title="By title" url="https://a.example/rss"/></outline>
              <outline text="News"><outline text="By text" title="not this" URL="https://b.example/atom"/></outline>
              <outline type="link" text="A page" url="https://c.example/"/>
              <outline type="include" text="Another list" url="https://d.example/list.opml"/>
            </body></opml>
            """.utf8))
        #expect(list.subscriptions == [
            Subscription(url: "https://a.example/rss", title: "By title", tags: ["Folder by title"]),
            Subscription(url: "https://b.example/atom", title: "By text", tags: ["News"]),
        ])
        for text in [#"<opml version="2.0"><head><title>cut short</title></head>"#, #"<opml version="2.0"/>"#] {
            #expect(throws: ToolError.self, "\(text)") { try OPML.read(Data(text.utf8)) }
        }
        #expect(try OPML.read(Data(#"<opml version="2.0"><body/></opml>"#.utf8)).subscriptions.isEmpty)
    }

    /// Many feeds in many folders round-trip too (each folder's feeds are found by lookup).
    @Test func manyFoldersRoundTrip() throws {
        let subscriptions = (0..<20_000).map { Subscription(url: "https://f.example/\($0)", title: "F\($0)", tags: ["Top \($0 % 50)/Sub \($0 % 5_000)"]) }
        let read = try OPML.read(Data(OPML.write(subscriptions).utf8)).subscriptions
        #expect(read.count == subscriptions.count)
        #expect(Dictionary(uniqueKeysWithValues: read.map { ($0.url, $0.tags) }) == Dictionary(uniqueKeysWithValues: subscriptions.map { ($0.url, $0.tags) }))
    }

    @Test func relativeURLsAreReadAgainstTheList() throws {
        let list = try OPML.read(Data(#"<opml version="2.0"><body><outline text="a" xmlUrl="/feeds/1.xml"/></body></opml>"#.utf8),
                                 url: "http://127.0.0.1:8106/feeds.opml")
        #expect(list.subscriptions.map(\.url) == ["http://127.0.0.1:8106/feeds/1.xml"])
        let file = try OPML.read(Data(#"<opml version="2.0"><body><outline text="a" xmlUrl="/feeds/1.xml"/></body></opml>"#.utf8))
        #expect(file.subscriptions.isEmpty && file.skipped == 1)
    }

    @Test func whatIsWrittenReadsBack() throws {
        let subscriptions = [
            Subscription(url: "https://a.example/feed?x=1&y=\"2\"", title: "A <&> \"quoted\""),
            Subscription(url: "https://b.example/rss", title: "B", tags: ["News"]),
            Subscription(url: "https://c.example/rss", title: "C", tags: ["Tech"]),
            Subscription(url: "https://d.example/rss", title: "D", tags: ["News"]),
        ]
        let written = OPML.write(subscriptions)
        let back = try OPML.read(Data(written.utf8))
        #expect(Set(back.subscriptions.map(\.url)) == Set(subscriptions.map(\.url)))
        #expect(back.subscriptions.first { $0.title == "A <&> \"quoted\"" } != nil)
        #expect(back.subscriptions.first { $0.url == "https://d.example/rss" }?.tags == ["News"])
        #expect(back.skipped == 0)
    }

    /// Every outline has a text (OPML 2.0 requires one): the name given, else the URL, which
    /// reads back as no name, not as a name pinned to the URL.
    @Test func anUnnamedFeedIsWrittenByItsURLAndReadBackUnnamed() throws {
        let subscriptions = [Subscription(url: "https://a.example/feed?x=1&y=2", title: ""),
                             Subscription(url: "https://b.example/rss", title: "", tags: ["News"]),
                             Subscription(url: "https://c.example/atom", title: "Mine")]
        let written = OPML.write(subscriptions, name: { $0.url.contains("b.example") ? "Fetched B" : $0.title })
        #expect(written.contains(#"text="https://a.example/feed?x=1&amp;y=2" title="https://a.example/feed?x=1&amp;y=2""#))
        #expect(written.contains(#"text="Fetched B" title="Fetched B""#))
        #expect(written.contains(#"text="Mine""#))
        let back = try OPML.read(Data(written.utf8))
        #expect(back.subscriptions.map(\.title) == ["", "Mine", "Fetched B"])
    }

    /// Issue 64: a feed's own title holding ESC and BEL (an OSC that sets a window's title)
    /// is written without them, the document stays well-formed XML and reads back, and a
    /// URL's user and password are left out of `xmlUrl`, `text` and `title`.
    @Test func controlsAndCredentialsStayOutOfTheExport() throws {
        let subscriptions = [Subscription(url: "https://reader:s3cret@feeds.example/a.xml", title: ""),
                             Subscription(url: "https://b.example/rss", title: "Evil\u{1B}]0;pwned\u{07} title\u{85}\u{FFFF}", tags: ["T\u{1B}[2J"])]
        let written = OPML.write(subscriptions)
        #expect(!written.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
        #expect(!written.contains("s3cret") && !written.contains("reader"))
        #expect(written.contains(#"xmlUrl="https://feeds.example/a.xml""#))
        let back = try OPML.read(Data(written.utf8))
        #expect(back.subscriptions.map(\.url).sorted() == ["https://b.example/rss", "https://feeds.example/a.xml"])
        #expect(back.subscriptions.contains { $0.title == "Evil]0;pwned title" })
        #expect(OPML.hasCredentials("http://u@h.example/") && !OPML.hasCredentials("http://h.example/a@b"))
    }

    /// Issue 64: an imported feed behind a password keeps its user and password (a urls file's
    /// did; an OPML file's were dropped without a word, and the feed then answered 401).
    @Test func anImportedURLKeepsItsCredentials() throws {
        let list = try OPML.read(Data("""
            <opml version="2.0"><body><outline text="A" xmlUrl="https://reader:s3cret@A.example"/>
            <outline text="B" xmlUrl="https://u@b.example/feed?x=1"/><outline text="C" xmlUrl="https://c.example/a@b"/></body></opml>
            """.utf8))
        #expect(list.subscriptions.map(\.url) == ["https://reader:s3cret@a.example/", "https://u@b.example/feed?x=1", "https://c.example/a@b"])
    }

    @Test func aFeedIsNotAList() {
        #expect(throws: ToolError.self) { try OPML.read(Data(#"<rss version="2.0"/>"#.utf8)) }
        #expect(throws: ToolError.self) { try OPML.read(Data("not xml".utf8)) }
    }

    /// The same stream as feeds: an external entity is never read.
    @Test func externalEntitiesAreNeverRead() throws {
        let list = try OPML.read(Data("""
            <!DOCTYPE opml [<!ENTITY x SYSTEM "file:///etc/passwd">]>
            <opml version="2.0"><body><outline text="&x;" xmlUrl="https://x.example/"/></body></opml>
            """.utf8))
        #expect(list.subscriptions.map(\.title) == [""])
    }
}

/// Issue 65: `feeds remove <Tab>` offers the subscriptions: their URLs (never one holding a
/// password) and their names that are one shell word, by prefix.
@Suite struct SubscriptionCompletionTests {
    @Test func removeCompletesURLsAndOneWordNames() {
        let subscriptions = [Subscription(url: "https://a.example/feed", title: "Alpha"),
                             Subscription(url: "https://ann:secret@b.example/rss", title: "Beta feed"),
                             Subscription(url: "https://c.example/atom", title: "")]
        #expect(Subscriptions.completions(subscriptions, prefix: "") == ["https://a.example/feed", "Alpha", "https://c.example/atom"])
        #expect(Subscriptions.completions(subscriptions, prefix: "A") == ["Alpha"])
        #expect(Subscriptions.completions(subscriptions, prefix: "https://b").isEmpty)
    }
}
