import FoundationEssentials
import Testing
@testable import BlogctlKit
import CoreKit
@testable import BlogctlEngines

/// Issue 49: what feeds really contain, read as the most-used parsers read it.
@Suite struct FeedParserTests {
    static let url = "https://blog.example/feed/"

    func feed(_ text: String, type: String? = nil, url: String = url) throws -> Feed {
        try FeedDocument.parse(Data(text.utf8), url: url, contentType: type)
    }

    func feed(bytes: [UInt8], type: String? = nil) throws -> Feed {
        try FeedDocument.parse(Data(bytes), url: Self.url, contentType: type)
    }

    /// The table that leaves out repeated ids, against a set of their bytes: random ids from
    /// a small alphabet (so that many repeat), short and long, canonically equal spellings
    /// told apart (an id is its bytes), over many doublings of the table.
    @Test func repeatedIDsAreTheRepeatedBytes() {
        var random = SeededGenerator(seed: 71)
        let pieces = ["a", "b", "é", "e\u{301}", "/", "1", "feed-1-item-", "\u{0}"]
        for round in 0..<40 {
            var ids = EntryIDs()
            var entries: [FeedEntry] = []
            var bytes: Set<[UInt8]> = []
            for _ in 0..<(round * 50) {
                let id = (0..<Int.random(in: 1...(round % 2 == 0 ? 3 : 12), using: &random))
                    .map { _ in pieces.randomElement(using: &random)! }.joined()
                let fresh = bytes.insert(Array(id.utf8)).inserted
                #expect(ids.insert(id, among: entries) == fresh, "\(id.debugDescription) in round \(round)")
                if fresh { entries.append(FeedEntry(id: id, title: "", summary: "", body: "", base: "")) }
            }
        }
    }

    /// Issue 65: no entry is lost to a repeated id. Each repeat is kept under the first
    /// `ID~N` (N from 2) that no entry before it has, also where the feed itself holds such an
    /// id; the same document gives the same ids on every read; RSS, Atom and JSON Feed alike.
    @Test func anEntryWithARepeatedIDIsKeptUnderANumberedID() throws {
        let ids = ["a", "a~2", "a", "b", "a", "a~3"]
        let expected = ["a", "a~2", "a~3", "b", "a~4", "a~3~2"]
        let rss = "<rss version=\"2.0\"><channel><title>t</title>"
            + ids.enumerated().map { "<item><guid isPermaLink=\"false\">\($1)</guid><title>E\($0)</title></item>" }.joined() + "</channel></rss>"
        let atom = "<feed xmlns=\"http://www.w3.org/2005/Atom\"><title>t</title>"
            + ids.enumerated().map { "<entry><id>\($1)</id><title>E\($0)</title></entry>" }.joined() + "</feed>"
        let json = "{\"version\": \"https://jsonfeed.org/version/1.1\", \"title\": \"t\", \"items\": ["
            + ids.enumerated().map { "{\"id\": \"\($1)\", \"title\": \"E\($0)\"}" }.joined(separator: ",") + "]}"
        for (document, type) in [(rss, "application/rss+xml"), (atom, "application/atom+xml"), (json, "application/feed+json")] {
            let once = try feed(document, type: type), again = try feed(document, type: type)
            #expect(once.entries.map(\.id) == expected, "\(type)")
            #expect(once.entries.map(\.title) == ids.indices.map { "E\($0)" }, "\(type)")
            #expect(once.renamed == 3 && once.entries == again.entries, "\(type)")
        }
        // An id at the length limit, repeated, is still an id every command can name.
        let long = String(repeating: "x", count: 4096)
        let twice = try feed("<rss version=\"2.0\"><channel><title>t</title><item><guid>\(long)</guid></item><item><guid>\(long)</guid></item></channel></rss>")
        #expect(twice.entries.count == 2 && twice.entries[1].id != long && ResourceID.problem(twice.entries[1].id) == nil)
    }

    /// A big feed's entries go to a sink as they are made (into the library): the sink
    /// refuses an id it holds, and the entry is offered again under the next number.
    @Test func aSinkThatRefusesARepeatedIDIsOfferedTheNumberedOne() throws {
        final class Sink: FeedEntrySink {
            var ids: [String] = []
            func take(_ entry: FeedEntry) throws(ToolError) -> Bool {
                guard !ids.contains(entry.id) else { return false }
                ids.append(entry.id)
                return true
            }
        }
        for (document, type) in [
            ("<rss version=\"2.0\"><channel><title>t</title>" + String(repeating: "<item><guid>x</guid></item>", count: 3) + "</channel></rss>",
             "application/rss+xml"),
            ("{\"version\": \"https://jsonfeed.org/version/1\", \"title\": \"t\", \"items\": [{\"id\": \"x\"}, {\"id\": \"x\"}, {\"id\": \"x\"}]}",
             "application/feed+json"),
        ] {
            let sink = Sink()
            let reader = FeedDocument.Reader(url: Self.url, contentType: type, sink: sink)
            repeat {
                try Array(document.utf8).withUnsafeBufferPointer { piece throws(ToolError) in try reader.add(piece) }
            } while try reader.readsAgain()
            guard case .feed(let read) = try reader.finish() else { Issue.record("not a feed"); continue }
            #expect(sink.ids == ["x", "x~2", "x~3"] && read.renamed == 2 && read.entries.isEmpty, "\(type): \(sink.ids)")
        }
    }

    /// A feed that repeats one id ten thousand times keeps every entry, each tried once: the
    /// numbering goes on from where the id's last repeat stopped.
    @Test func oneIDRepeatedThousandsOfTimesKeepsEveryEntry() throws {
        let items = String(repeating: "<item><guid>same</guid></item>", count: 10_000)
        let read = try feed("<rss version=\"2.0\"><channel><title>t</title>\(items)</channel></rss>")
        #expect(read.entries.count == 10_000 && read.renamed == 9_999)
        #expect(read.entries.last?.id == "same~10000" && Set(read.entries.map(\.id)).count == 10_000)
    }

    /// Thousands of entries keep the document's order, and an entry that repeats the id of
    /// one far before it is kept as `ID~2`.
    @Test func manyEntriesKeepTheirOrder() throws {
        let count = 2_833
        // From `back` on, every seventh entry repeats the id of one `back` entries earlier
        // (`back` is 1 more than a multiple of 7, so that one is no repeat).
        let back = 1_793
        func repeats(_ number: Int) -> Bool { number % 7 == 6 && number >= back }
        var items = ""
        for number in 0..<count {
            let id = repeats(number) ? "e\(number - back)" : "e\(number)"
            items += "<item><guid>\(id)</guid><title>Entry \(number)</title></item>\n"
        }
        let feed = try feed("<rss version=\"2.0\"><channel><title>t</title>\n\(items)</channel></rss>", type: "application/rss+xml")
        func id(_ number: Int) -> String { repeats(number) ? "e\(number - back)~2" : "e\(number)" }
        // The first place they differ, not two lists of thousands, when they do.
        let titles = feed.entries.map(\.title), ids = feed.entries.map(\.id)
        let wrong = (0..<count).first { $0 >= titles.count || titles[$0] != "Entry \($0)" || ids[$0] != id($0) }
        #expect(titles.count == count && wrong == nil, "\(titles.count) entries of \(count); first wrong at \(wrong.map(String.init) ?? "-")")
        #expect(feed.renamed == (0..<count).filter(repeats).count && feed.renamed > 0)
    }

    @Test func rss20() throws {
        let feed = try feed("""
            <?xml version="1.0" encoding="utf-8"?>
            <rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/">
            <channel><title>Ada &amp; Co</title><link>https://blog.example/</link>
            <item>
              <title><![CDATA[Tom & Jerry <3]]></title>
              <link>/posts/1</link>
              <guid isPermaLink="false">tag:blog.example,2026:1</guid>
              <description>&lt;p&gt;The &lt;b&gt;short&lt;/b&gt; one&lt;/p&gt;</description>
              <content:encoded><![CDATA[<p>The <b>long</b> one</p>]]></content:encoded>
              <dc:creator>Ada Lovelace</dc:creator>
              <pubDate>Fri, 27 Nov 2026 10:30:15 GMT</pubDate>
            </item>
            <item><title>Second</title><author>grace@example.com (Grace Hopper)</author><link>https://blog.example/2</link>
              <pubDate>sometime soon</pubDate></item>
            <item><title>Second again</title><link>https://blog.example/2</link></item>
            </channel></rss>
            """, type: "application/rss+xml")
        #expect(feed.format == .rss20)
        #expect(feed.title == "Ada & Co")
        #expect(feed.link == "https://blog.example/")
        #expect(feed.entries.map(\.id) == ["tag:blog.example,2026:1", "https://blog.example/2", "https://blog.example/2~2"])
        #expect(feed.entries.map(\.title).last == "Second again")
        #expect(feed.renamed == 1)
        let first = feed.entries[0]
        #expect(first.id == "tag:blog.example,2026:1")
        #expect(first.title == "Tom & Jerry <3")
        #expect(first.link == "https://blog.example/posts/1")
        #expect(first.author == "Ada Lovelace")
        #expect(first.summary == "The short one")
        #expect(first.body == "<p>The <b>long</b> one</p>")
        #expect(first.published == FeedDate.parse("2026-11-27T10:30:15Z"))
        let second = feed.entries[1]
        #expect(second.id == "https://blog.example/2")
        #expect(second.author == "Grace Hopper")
        #expect(second.published == nil, "a date that cannot be read is unknown")
        #expect(feed.problems == 0)
    }

    @Test func rss10AndRss090() throws {
        let rdf = try feed("""
            <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/"
                     xmlns:dc="http://purl.org/dc/elements/1.1/">
              <channel rdf:about="https://blog.example/"><title>RDF</title><link>https://blog.example/</link></channel>
              <item rdf:about="https://blog.example/a"><title>A</title><link>https://blog.example/a</link>
                <description>Plain &amp;amp; simple</description><dc:date>2026-11-27</dc:date><dc:creator>Edsger</dc:creator></item>
            </rdf:RDF>
            """)
        #expect(rdf.format == .rss10)
        #expect(rdf.title == "RDF")
        #expect(rdf.entries.map(\.id) == ["https://blog.example/a"])
        #expect(rdf.entries[0].published == FeedDate.parse("2026-11-27"))
        #expect(rdf.entries[0].author == "Edsger")
        #expect(rdf.entries[0].summary == "Plain & simple")
        let old = try feed("""
            <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://my.netscape.com/rdf/simple/0.9/">
              <channel><title>Old</title><link>https://old.example/</link></channel>
              <item><title>One</title><link>https://old.example/1</link></item>
            </rdf:RDF>
            """)
        #expect(old.format == .rss090)
        #expect(old.entries.map(\.link) == ["https://old.example/1"])
    }

    /// No guid and no link: an id from the title and the date, the same at every refresh.
    @Test func rss091EntriesWithoutIdsKeepTheirIds() throws {
        let text = """
            <rss version="0.91"><channel><title>x</title>
            <item><title>Alone</title><pubDate>Fri, 27 Nov 2026 10:30 GMT</pubDate></item>
            <item><title>Alone</title><pubDate>Sat, 28 Nov 2026 10:30 GMT</pubDate></item>
            </channel></rss>
            """
        let once = try feed(text), again = try feed(text)
        #expect(once.format == .rss09x)
        #expect(once.entries.count == 2)
        #expect(once.entries.map(\.id) == again.entries.map(\.id))
        #expect(once.entries[0].id != once.entries[1].id)
        #expect(once.entries[0].id.hasPrefix("h"))
    }

    @Test func atom10WithXMLBaseAndTypedText() throws {
        let feed = try feed("""
            <feed xmlns="http://www.w3.org/2005/Atom" xml:base="https://other.example/blog/">
              <title type="html">Ada &amp;lt;3</title>
              <link rel="self" href="feed.atom"/><link href="./"/>
              <entry xml:base="2026/">
                <id>urn:uuid:1</id>
                <title type="html">&lt;em&gt;Big&lt;/em&gt; news</title>
                <link rel="alternate" type="text/html" href="big-news.html?a=1&amp;b=&quot;2&quot;"/>
                <link rel="enclosure" href="/x.mp3"/>
                <published>2026-11-27T11:30:15+01:00</published><updated>2026-11-28T00:00:00Z</updated>
                <author><name>Ada</name><email>ada@example.com</email></author>
                <summary>Plain &lt;not a tag&gt;</summary>
                <content type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml"><p>Hello <a href="../x">there</a><br/>again</p></div></content>
              </entry>
              <entry><id>urn:uuid:2</id><title>Two</title><updated>2026-11-20T00:00:00Z</updated>
                <content type="text">line one
            line two

            para &lt;2&gt;</content></entry>
            </feed>
            """)
        #expect(feed.format == .atom10)
        #expect(feed.title == "Ada <3")
        #expect(feed.link == "https://other.example/blog/")
        let first = feed.entries[0]
        #expect(first.title == "Big news")
        #expect(first.link == "https://other.example/blog/2026/big-news.html?a=1&b=\"2\"")
        #expect(first.author == "Ada")
        #expect(first.summary == "Plain <not a tag>")
        #expect(first.published == FeedDate.parse("2026-11-27T10:30:15Z"))
        #expect(first.updated == FeedDate.parse("2026-11-28T00:00:00Z"))
        #expect(first.body == #"<div><p>Hello <a href="../x">there</a><br>again</p></div>"#)
        #expect(first.base == "https://other.example/blog/2026/")
        let second = feed.entries[1]
        #expect(second.date == FeedDate.parse("2026-11-20T00:00:00Z"))
        #expect(second.body == "<p>line one<br>line two</p><p>para &lt;2&gt;</p>")
    }

    @Test func atom03() throws {
        let feed = try feed("""
            <feed version="0.3" xmlns="http://purl.org/atom/ns#">
              <title>Old Atom</title><link rel="alternate" type="text/html" href="https://old.example/"/>
              <entry><title mode="escaped" type="text/html">A &amp;amp; B</title><id>tag:1</id>
                <link rel="alternate" href="https://old.example/1"/><issued>2026-11-27T10:30:15Z</issued>
                <content type="text/html" mode="escaped">&lt;p&gt;Hi&lt;/p&gt;</content></entry>
            </feed>
            """)
        #expect(feed.format == .atom03)
        #expect(feed.entries[0].title == "A & B")
        #expect(feed.entries[0].body == "<p>Hi</p>")
        #expect(feed.entries[0].published == FeedDate.parse("2026-11-27T10:30:15Z"))
    }

    @Test func jsonFeed() throws {
        let feed = try feed("""
            {"version": "https://jsonfeed.org/version/1.1", "title": "J", "home_page_url": "https://j.example/",
             "authors": [{"name": "Feed Author"}],
             "items": [
               {"id": 7, "url": "/p/7", "title": "Seven", "content_text": "a < b", "date_published": "2026-11-27T10:30:15Z"},
               {"id": "8", "title": "Eight", "content_html": "<p>8</p>", "authors": [{"name": "Grace"}], "date_published": "nope"},
               {"id": ["not", "a", "string"], "title": "Odd"},
               {"id": "8", "title": "Eight again"}
             ]}
            """, type: "application/feed+json")
        #expect(feed.format == .jsonFeed11)
        #expect(feed.title == "J")
        #expect(feed.entries.map(\.id) == ["7", "8", "h" + String(FeedEntry.hashedID("Odd\u{0}").dropFirst()), "8~2"])
        #expect(feed.renamed == 1)
        #expect(feed.entries[0].link == "https://blog.example/p/7")
        #expect(feed.entries[0].author == "Feed Author")
        #expect(feed.entries[0].body == "<p>a &lt; b</p>")
        #expect(feed.entries[0].summary == "a < b")
        #expect(feed.entries[1].author == "Grace")
        #expect(feed.entries[1].published == nil)
        let old = try self.feed(#"{"version": "https://jsonfeed.org/version/1", "items": []}"#)
        #expect(old.format == .jsonFeed10)
        #expect(throws: ToolError.self) { try self.feed(#"{"title": "no version"}"#) }
    }

    /// Issue 65: plain text (a JSON Feed's `content_text`, Atom's `type="text"`) keeps its line
    /// ends (a `<br>` each; a blank line parts paragraphs), and a summary made from HTML parts
    /// its blocks, cells and line breaks with a space (it joined `<p>one</p><p>two</p>` as
    /// "onetwo"), without a script's or a style's text.
    @Test func plainTextKeepsItsLinesAndSummariesPartTheirBlocks() throws {
        let feed = try feed(#"""
            {"version": "https://jsonfeed.org/version/1.1", "items": [
              {"id": "1", "content_text": "Roses are red,\nviolets are blue.\r\n\nA & B"},
              {"id": "2", "content_html": "<p>one</p><p>two</p><ul><li>three</li><li>four</li></ul>five<br>six<table><tr><td>a</td><td>b</td></tr></table><script>x()</script><style>p{}</style>end"}
            ]}
            """#, type: "application/feed+json")
        #expect(feed.entries[0].body == "<p>Roses are red,<br>violets are blue.</p><p>A &amp; B</p>")
        #expect(feed.entries[0].summary == "Roses are red, violets are blue. A & B")
        #expect(feed.entries[1].summary == "one two three four five six a b end")
        let page = try PostPage.renderBody(Array(feed.entries[0].body.utf8), options: RenderOptions(width: 70))
        #expect(String(decoding: page, as: UTF8.self) == "Roses are red,\nviolets are blue.\n\nA & B\n")
    }

    /// Issue 64: an id the toolbox's one id rule refuses (a NUL, more than 4096 bytes) is
    /// replaced by a hash of it, the same at every refresh, instead of an entry no command can
    /// name (`nulx` was listed and `read nulx` said not found).
    @Test func idsHoldingNULOrTooLongAreHashed() throws {
        let long = String(repeating: "i", count: 5000)
        let json = #"{"version": "https://jsonfeed.org/version/1.1", "items": [{"id": "nul\u0000x", "title": "N"}, "#
            + #"{"id": "\#(long)", "title": "L"}, {"id": "fine", "title": "F"}]}"#
        let feed = try feed(json, type: "application/feed+json")
        #expect(feed.entries.count == 3)
        #expect(feed.entries.allSatisfy { ResourceID.problem($0.id) == nil })
        #expect(feed.entries[2].id == "fine")
        #expect(try self.feed(json, type: "application/feed+json").entries.map(\.id) == feed.entries.map(\.id))
        let atom = try self.feed("<feed xmlns='http://www.w3.org/2005/Atom'><entry><id>\(long)</id><title>T</title></entry></feed>")
        #expect(atom.entries.first.map { ResourceID.problem($0.id) == nil } == true)
    }

    /// The kind comes from the content type, then the document; never from the URL.
    @Test func kinds() {
        #expect(FeedDocument.kind(contentType: "application/json; charset=utf-8", head: Array("<rss>".utf8)) == .json)
        #expect(FeedDocument.kind(contentType: "text/html", head: Array("<?xml version='1.0'?><rss>".utf8)) == .xml)
        #expect(FeedDocument.kind(contentType: "text/html; charset=utf-8", head: Array("\n<!DOCTYPE html><html>".utf8)) == .html)
        #expect(FeedDocument.kind(contentType: "text/plain", head: Array("  {\"version\": 1}".utf8)) == .json)
        #expect(FeedDocument.kind(contentType: nil, head: Array("<feed xmlns='http://www.w3.org/2005/Atom'>".utf8)) == .xml)
        #expect(FeedDocument.kind(contentType: "text/html", head: Array("<head><link rel=alternate>".utf8)) == .html)
    }

    /// RFC 7303: the HTTP charset over the declaration; latin-1 read as windows-1252.
    @Test func encodings() throws {
        func rss(_ declaration: String, _ title: [UInt8]) -> [UInt8] {
            Array("<?xml version=\"1.0\" encoding=\"\(declaration)\"?><rss version=\"2.0\"><channel><title>".utf8) + title
                + Array("</title></channel></rss>".utf8)
        }
        // 0x93 and 0x94 are quotation marks in windows-1252, controls in latin-1.
        #expect(try feed(bytes: rss("ISO-8859-1", [0x93, 0x63, 0x61, 0x66, 0xE9, 0x94])).title == "\u{201C}café\u{201D}")
        // The HTTP charset wins over a wrong declaration.
        #expect(try feed(bytes: rss("utf-8", [0x63, 0x61, 0x66, 0xE9]), type: "text/xml; charset=latin1").title == "café")
        #expect(try feed(bytes: rss("utf-8", Array("café".utf8)), type: "application/rss+xml; charset=\"UTF-8\"").title == "café")
        // A byte order mark wins over both.
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF] + rss("iso-8859-1", Array("café".utf8))
        #expect(try feed(bytes: bom, type: "text/xml; charset=iso-8859-1").title == "café")
        // UTF-16 with its mark, whatever the declaration says.
        let utf16: [UInt8] = [0xFF, 0xFE] + Array("<?xml version=\"1.0\" encoding=\"utf-8\"?><rss version=\"2.0\"><channel><title>café</title></channel></rss>".utf16)
            .flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        #expect(try feed(bytes: utf16).title == "café")
        #expect(FeedDocument.declaredEncoding(Array("<?xml version='1.0' encoding = 'Shift_JIS'?>".utf8)) == "shift_jis")
    }

    @Test func illFormedXMLIsRecoveredWithAWarning() throws {
        let feed = try feed("""
            <rss version="2.0"><channel><title>Broken &nbsp; feed</title>
            <item><title>One & two</title><link>https://b.example/1</link></item>
            <item><title>Unclosed<link>https://b.example/2</link></item>
            </channel>
            """)
        #expect(feed.problems > 0)
        #expect(feed.firstProblem != nil)
        #expect(feed.entries.first?.link == "https://b.example/1")
    }

    /// Hostile feeds are data: no external entity, no DTD, no network; no expansion.
    @Test func externalEntitiesAreNeverRead() throws {
        let feed = try feed("""
            <?xml version="1.0"?>
            <!DOCTYPE rss [<!ENTITY secret SYSTEM "file:///etc/passwd"> <!ENTITY % remote SYSTEM "http://127.0.0.1:9/x.dtd"> %remote;]>
            <rss version="2.0"><channel><title>t&secret;</title>
            <item><title>&secret;</title><description>&secret;</description><link>https://x.example/</link></item></channel></rss>
            """)
        #expect(feed.title == "t")
        #expect(!feed.entries[0].title.contains("root"))
        #expect(!feed.entries[0].summary.contains("root:"))
        #expect(!feed.entries[0].body.contains("root:"))
    }

    /// A parameter entity naming a local file (NONET does not forbid file://) is never read,
    /// nor an entity in an attribute.
    @Test func localFilesAreNeverRead() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("feed-dtd-" + String(UInt64.random(in: 0...UInt64.max)))
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let dtd = folder.appendingPathComponent("evil.dtd")
        try Data(#"<!ENTITY leak "LEAKED">"#.utf8).write(to: dtd)
        let feed = try feed("""
            <?xml version="1.0"?>
            <!DOCTYPE feed [<!ENTITY % p SYSTEM "file://\(dtd.path)"> %p; <!ENTITY secret SYSTEM "file://\(dtd.path)">]>
            <feed xmlns="http://www.w3.org/2005/Atom"><title>&leak;</title>
            <entry><id>1</id><title>&leak;&secret;</title><link href="https://x.example/&leak;"/><summary>&secret;</summary></entry></feed>
            """)
        for text in [feed.title, feed.entries[0].title, feed.entries[0].link ?? "", feed.entries[0].summary, feed.entries[0].body] {
            #expect(!text.contains("LEAKED") && !text.contains("ENTITY"), "\(text)")
        }
    }

    @Test func aBillionLaughsExpandsToNothing() throws {
        var dtd = "<!ENTITY lol \"lol\">"
        for level in 1...9 { dtd += "<!ENTITY lol\(level) \"" + String(repeating: "&lol\(level == 1 ? "" : String(level - 1));", count: 10) + "\">" }
        let feed = try feed("<?xml version=\"1.0\"?><!DOCTYPE rss [\(dtd)]><rss version=\"2.0\"><channel><title>&lol9;</title>"
            + "<item><title>&lol9;</title><link>https://x.example/</link></item></channel></rss>")
        #expect(feed.entries[0].title.utf8.count < 1000)
        #expect(feed.title.utf8.count < 1000)
    }

    /// An endless field is cut at its bound, in text and in serialised XHTML alike.
    @Test func aFieldIsBounded() throws {
        let chunk = String(repeating: "x", count: 4096)
        let pieces = String(repeating: "<![CDATA[" + chunk + "]]>", count: 256)
        let feed = try feed("<rss version=\"2.0\"><channel><title>t</title><item><title>" + pieces + "</title><guid>" + pieces
            + "</guid></item></channel></rss>")
        #expect(feed.entries[0].title.utf8.count == FeedXMLParser.largest(.title))
        // An id past the toolbox's id rule (4096 bytes) is kept as a hash of its bounded text.
        #expect(feed.entries[0].id == FeedEntry.hashedID(String(repeating: "x", count: FeedXMLParser.largest(.id))))
        let xhtml = try self.feed("<feed xmlns=\"http://www.w3.org/2005/Atom\"><entry><id>1</id><content type=\"xhtml\"><div>"
            + String(repeating: "<b>" + chunk + "</b>", count: 5000) + "</div></content></entry></feed>")
        #expect(xhtml.entries[0].body.utf8.count <= FeedXMLParser.largest(.content) + 4096 * 2)
    }

    @Test func onlyWebLinksAreLinks() throws {
        let feed = try feed("""
            <rss version="2.0"><channel><title>x</title>
            <item><title>a</title><link>javascript:alert(1)</link></item>
            <item><title>b</title><link>data:text/html,hi</link></item>
            <item><title>c</title><link> https://ok.example/c </link></item>
            </channel></rss>
            """)
        #expect(feed.entries.map(\.link) == [nil, nil, "https://ok.example/c"])
    }

    @Test func whatIsNotAFeedIsSaidSo() {
        #expect(throws: ToolError.self) { try feed("<html><body>hi</body></html>", type: "text/html") }
        #expect(throws: ToolError.self) { try feed("<opml version='2.0'/>") }
        #expect(throws: ToolError.self) { try feed("") }
        #expect(throws: ToolError.self) { try feed("not xml at all") }
    }

    /// Text already on one line is returned as it is; any other is collapsed: for random text
    /// of spaces, tabs, line breaks and letters, the same as splitting on them and joining.
    @Test func collapsingIsSplittingAndJoining() {
        var generator = SeededGenerator(seed: 491)
        let alphabet: [String] = [" ", "  ", "\t", "\n", "\r", "a", "é", "東", "\u{0301}", "\u{A0}"]
        for _ in 0..<5_000 {
            let text = (0..<Int.random(in: 0...10, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }.joined()
            let words = text.utf8.split(whereSeparator: { [0x20, 0x09, 0x0A, 0x0D].contains($0) })
            let expected = words.map { String(decoding: $0, as: UTF8.self) }.joined(separator: " ")
            #expect(Array(FeedText.collapsed(text).utf8) == Array(expected.utf8), "\(Array(text.utf8))")
        }
    }
}

/// Issue 65: what real feeds carry beyond the core elements, read as feedparser reads it.
@Suite struct FeedExtensionTests {
    static let url = "https://blog.example/feed/"

    func feed(_ text: String) throws -> Feed {
        try FeedDocument.parse(Data(text.utf8), url: Self.url, contentType: nil)
    }

    /// A YouTube channel's feed: Atom whose entries' text is only in `media:group`.
    @Test func mediaRSSGivesTitleAndText() throws {
        let youtube = try feed("""
            <feed xmlns="http://www.w3.org/2005/Atom" xmlns:media="http://search.yahoo.com/mrss/" xmlns:yt="http://www.youtube.com/xml/schemas/2015">
            <title>Channel</title>
            <entry><id>yt:video:abc</id><title>A video</title><link rel="alternate" href="https://www.youtube.com/watch?v=abc"/>
            <media:group><media:title>A video</media:title><media:content url="https://www.youtube.com/v/abc" type="application/x-shockwave-flash"/>
            <media:description>What it shows &amp; why.</media:description></media:group></entry>
            </feed>
            """)
        let entry = try #require(youtube.entries.first)
        #expect(entry.title == "A video" && entry.summary == "What it shows & why.", "\(entry)")
        #expect(entry.body.contains("What it shows &amp; why."), "\(entry.body)")
        #expect(entry.link == "https://www.youtube.com/watch?v=abc")
        let rss = try feed("""
            <rss version="2.0" xmlns:media="http://search.yahoo.com/mrss/"><channel><title>M</title>
            <item><guid isPermaLink="false">m1</guid><media:content url="https://m.example/1.jpg">
            <media:title type="plain">Only &lt;media&gt; here</media:title>
            <media:description type="html">&lt;p&gt;An &lt;b&gt;html&lt;/b&gt; text&lt;/p&gt;</media:description></media:content></item>
            <item><guid isPermaLink="false">m2</guid><title>Own title</title><description>Own text</description>
            <media:title>Media title</media:title><media:description>Media text</media:description></item>
            </channel></rss>
            """)
        #expect(rss.entries.map(\.title) == ["Only <media> here", "Own title"])
        #expect(rss.entries.map(\.summary) == ["An html text", "Own text"])
        #expect(rss.entries.first?.body == "<p>An <b>html</b> text</p>")
    }

    /// Issue 65: a podcast's files, as newsboat's podboat and feedparser read them: RSS's
    /// `enclosure`, iTunes's duration and image; the same file named again as `media:content`
    /// is one file, with what the second adds; Atom's `rel="enclosure"`; `media:content` in a
    /// `media:group`, and its thumbnail as the picture.
    @Test func enclosuresAndPictures() throws {
        let rss = try feed("""
            <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd" xmlns:media="http://search.yahoo.com/mrss/">
            <channel><title>Cast</title><itunes:image href="https://cast.example/show.jpg"/>
            <item><title>Episode 1</title><guid>e1</guid>
              <enclosure url="/media/e1.mp3" length="24123456" type="audio/mpeg"/>
              <media:content url="https://blog.example/media/e1.mp3" fileSize="1" duration="99"/>
              <itunes:duration>1:02:05</itunes:duration><itunes:image href="https://cast.example/e1.jpg"/></item>
            <item><title>Episode 2</title><guid>e2</guid><enclosure url="https://cast.example/e2.ogg" length="0" type=""/>
              <enclosure url="gopher://cast.example/e2"/><itunes:duration>45:07</itunes:duration></item>
            <item><title>Episode 3</title><guid>e3</guid><enclosure url="https://cast.example/e3.mp3"/><itunes:duration>soon</itunes:duration></item>
            </channel></rss>
            """)
        #expect(rss.entries.map(\.enclosures) == [
            [Enclosure(url: "https://blog.example/media/e1.mp3", type: "audio/mpeg", length: 24_123_456, duration: 99)],
            [Enclosure(url: "https://cast.example/e2.ogg", duration: 2707)],
            [Enclosure(url: "https://cast.example/e3.mp3")],
        ])
        #expect(rss.entries.map(\.picture) == ["https://cast.example/e1.jpg", nil, nil], "the show's image is not an episode's")
        let atom = try feed("""
            <feed xmlns="http://www.w3.org/2005/Atom" xmlns:media="http://search.yahoo.com/mrss/"><title>A</title>
            <entry><id>1</id><title>t</title><link rel="enclosure" href="talk.webm" type="video/webm" length="5000"/>
              <media:group><media:content url="https://v.example/1.mp4" type="video/mp4" duration="61.6"/>
              <media:thumbnail url="https://v.example/1.jpg" width="480"/></media:group></entry>
            </feed>
            """)
        #expect(atom.entries.first?.enclosures == [Enclosure(url: "https://blog.example/feed/talk.webm", type: "video/webm", length: 5000),
                                                   Enclosure(url: "https://v.example/1.mp4", type: "video/mp4", duration: 62)])
        #expect(atom.entries.first?.picture == "https://v.example/1.jpg")
        #expect(atom.entries.first?.metadata.enclosures?.count == 2)
        // media:player is a video's page: the entry's link when it has none of its own, at any
        // depth of media:group; a link of its own comes first.
        let players = try feed("""
            <feed xmlns="http://www.w3.org/2005/Atom" xmlns:media="http://search.yahoo.com/mrss/"><title>Y</title>
            <entry><id>yt:1</id><media:group><media:title>Only a player</media:title>
              <media:content url="https://v.example/2.mp4"><media:player url="/watch?v=2"/></media:content></media:group></entry>
            <entry><id>yt:2</id><title>t</title><link rel="alternate" href="https://v.example/page"/>
              <media:group><media:player url="https://v.example/embed/3"/></media:group></entry>
            </feed>
            """)
        #expect(players.entries.map(\.link) == ["https://blog.example/watch?v=2", "https://v.example/page"])
        #expect(players.entries.first?.title == "Only a player")
        // A hostile entry of thousands of files keeps the first 64.
        let many = try feed("<rss version=\"2.0\"><channel><title>t</title><item><guid>x</guid>"
            + (0..<5000).map { "<enclosure url=\"https://m.example/\($0)\"/>" }.joined() + "</item></channel></rss>")
        #expect(many.entries.first?.enclosures.count == Enclosure.mostPerEntry)
        #expect(many.entries.first?.enclosures.last?.url == "https://m.example/63")
    }

    /// JSON Feed's `attachments` and `image`, numbers where the spec has numbers.
    @Test func jsonFeedAttachments() throws {
        let json = try feed("""
            {"version": "https://jsonfeed.org/version/1.1", "title": "J", "items": [
              {"id": "1", "title": "One", "image": "/i/1.png", "attachments": [
                {"url": "/a/1.m4a", "mime_type": "audio/x-m4a", "size_in_bytes": 89970236, "duration_in_seconds": 6629},
                {"url": "https://j.example/a/1.m4a", "mime_type": "audio/x-m4a"},
                {"url": ["no"], "mime_type": "x/y"},
                {"mime_type": "audio/mpeg", "url": "https://j.example/a/2.mp3", "size_in_bytes": "12"}],
               "nested": {"attachments": [{"url": "https://j.example/not-an-attachment"}]}},
              {"id": "2", "title": "Two", "attachments": "none"}
            ]}
            """)
        #expect(json.entries.map(\.enclosures) == [
            [Enclosure(url: "https://blog.example/a/1.m4a", type: "audio/x-m4a", length: 89_970_236, duration: 6629),
             Enclosure(url: "https://j.example/a/1.m4a", type: "audio/x-m4a"),
             Enclosure(url: "https://j.example/a/2.mp3", type: "audio/mpeg", length: 12)],
            [],
        ])
        #expect(json.entries.first?.picture == "https://blog.example/i/1.png")
        // A hostile item of thousands of attachments keeps the first 64.
        let many = try feed("{\"version\": \"https://jsonfeed.org/version/1.1\", \"title\": \"J\", \"items\": [{\"id\": \"1\", \"attachments\": ["
            + (0..<5000).map { "{\"url\": \"https://m.example/\($0)\", \"mime_type\": \"x/y\"}" }.joined(separator: ",") + "]}]}")
        #expect(many.entries.first?.enclosures.count == Enclosure.mostPerEntry)
        #expect(many.entries.first?.enclosures.last?.url == "https://m.example/63")
    }

    /// Durations as feeds write them; anything else is none.
    @Test func durationsReadAsFeedsWriteThem() {
        let cases: [(String, Int?)] = [("3725", 3725), ("3725.4", 3725), ("1:02:05", 3725), ("62:05", 3725), ("0:59", 59),
                                       ("", nil), ("0", nil), ("1:60", nil), ("1:2:3:4", nil), ("-5", nil), ("1e3", nil),
                                       ("1.5:30", nil), ("abc", nil), ("nan", nil), ("inf", nil), ("99999999999", nil)]
        for (text, seconds) in cases { #expect(Enclosure.seconds(text) == seconds, "\(text)") }
        #expect(Enclosure.clock(3725) == "1:02:05" && Enclosure.clock(59) == "0:59")
        #expect(Enclosure(url: "u", type: "audio/mpeg", length: 24_123_456, duration: 3725).details == "audio/mpeg, 24.1 MB, 1:02:05")
    }

    /// Atom 0.3's `mode="base64"` text constructs, as feedparser decodes them; base64 that
    /// is not base64 is no text, not garbage.
    @Test func atom03Base64Constructs() throws {
        let body = Base64.encode(Array("<p>Caf\u{e9} &amp; <b>bold</b></p>".utf8))
        let title = Base64.encode(Array("Plain <title>".utf8))
        let atom = try feed("""
            <feed version="0.3" xmlns="http://purl.org/atom/ns#"><title>A</title>
            <entry><id>1</id><title mode="base64">\(title)</title>
            <content type="text/html" mode="base64">\(body.prefix(10))
            \(body.dropFirst(10))</content></entry>
            <entry><id>2</id><title mode="base64">not base64!</title></entry>
            </feed>
            """)
        #expect(atom.entries.map(\.title) == ["Plain <title>", ""])
        #expect(atom.entries.first?.body == "<p>Caf\u{e9} &amp; <b>bold</b></p>")
    }

    @Test func base64RoundTrips() {
        var random = SeededGenerator(seed: 65)
        for length in 0..<200 {
            let bytes = (0..<length).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            #expect(Base64.decode(Base64.encode(bytes)) == bytes, "\(length)")
        }
        #expect(Base64.decode("aGk") == Array("hi".utf8) && Base64.decode("aGk=\n") == Array("hi".utf8))
        for bad in ["a", "aGk=a", "a*b=", "é"] { #expect(Base64.decode(bad) == nil, "\(bad)") }
    }

    /// An RSS title is HTML when it looks so, as feedparser guesses (RSS never says): a
    /// double-escaped `&amp;amp;` is `&`, an end tag is markup; text that only looks like a
    /// tag stays. Atom's titles say their type, and are never guessed.
    @Test func anRSSTitleThatLooksLikeHTMLIsRead() throws {
        let titles = ["Second &amp;amp; escaped", "A &lt;b&gt;bold&lt;/b&gt; title", "Tom &amp; Jerry &lt;3", "Use &lt;T&gt; here &amp;amp; there",
                      "Caf&amp;#233;", "x &lt;blink&gt;y&lt;/blink&gt;"]
        let rss = try feed("<rss version=\"2.0\"><channel><title>t</title>"
            + titles.enumerated().map { "<item><guid>\($0.offset)</guid><title>\($0.element)</title></item>" }.joined() + "</channel></rss>")
        #expect(rss.entries.map(\.title) == ["Second & escaped", "A bold title", "Tom & Jerry <3", "Use <T> here &amp; there",
                                             "Caf\u{e9}", "x <blink>y</blink>"])
        let atom = try feed("<feed xmlns=\"http://www.w3.org/2005/Atom\"><title>t</title><entry><id>1</id><title>Second &amp;amp; escaped</title></entry></feed>")
        #expect(atom.entries.first?.title == "Second &amp; escaped")
    }

    /// Of an entry's alternate links, the one a browser shows: not the first when that one is
    /// Gemini or plain text; any http(s) one before a `gemini:` or `gopher:` one, whatever
    /// their types say; none of those alone.
    @Test func theHTMLAlternateWins() throws {
        let atom = try feed("""
            <feed xmlns="http://www.w3.org/2005/Atom"><title>A</title>
            <entry><id>1</id><title>t</title><link rel="alternate" type="text/gemini" href="gemini://g.example/1"/>
            <link rel="alternate" type="text/plain" href="https://g.example/1.txt"/>
            <link rel="alternate" type="text/html" href="https://g.example/1.html"/><link href="https://g.example/other"/></entry>
            <entry><id>2</id><title>t</title><link rel="alternate" type="text/plain" href="https://g.example/2.txt"/></entry>
            <entry><id>3</id><title>t</title><link rel="alternate" type="text/gemini" href="gemini://g.example/3"/>
            <link rel="alternate" type="text/plain" href="/3.txt"/></entry>
            <entry><id>4</id><title>t</title><link rel="alternate" type="text/html" href="GOPHER://g.example/4"/>
            <link rel="alternate" type="text/plain" href="HTTPS://g.example/4.txt"/></entry>
            <entry><id>5</id><title>t</title><link rel="alternate" href="gemini://g.example/5"/></entry>
            </feed>
            """)
        #expect(atom.entries.map(\.link) == ["https://g.example/1.html", "https://g.example/2.txt", "https://blog.example/3.txt",
                                             "https://g.example/4.txt", nil])
    }

    /// Escaped markup in a title is text, whatever the title's type: `&lt;blink&gt;` in XHTML
    /// and in plain text is the word `<blink>`; in HTML it is markup, as browsers read it.
    @Test func escapedMarkupInATitleIsText() throws {
        let atom = try feed("""
            <feed xmlns="http://www.w3.org/2005/Atom"><title>A</title>
            <entry><id>1</id><title type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml">History of the &lt;blink&gt; tag</div></title></entry>
            <entry><id>2</id><title type="text">History of the &lt;blink&gt; tag</title></entry>
            <entry><id>3</id><title type="html">History of the &amp;lt;blink&amp;gt; tag</title></entry>
            <entry><id>4</id><title type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml">A <b>bold</b> &amp; plain</div></title></entry>
            </feed>
            """)
        #expect(atom.entries.map(\.title) == ["History of the <blink> tag", "History of the <blink> tag", "History of the <blink> tag", "A bold & plain"])
    }

    /// `dc:title` as a title, `dcterms:` dates, a permalink guid as the link.
    @Test func dublinCoreAndPermalinkGuids() throws {
        let rss = try feed("""
            <rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/"><channel><title>D</title>
            <item><guid>https://d.example/posts/1</guid><dc:title>From Dublin Core</dc:title>
            <dcterms:issued>2026-11-27T10:30:15Z</dcterms:issued><dcterms:modified>2026-11-28T10:30:15Z</dcterms:modified></item>
            <item><guid isPermaLink="false">https://d.example/posts/2</guid><title>Not a permalink</title>
            <dcterms:created>2026-11-26T10:30:15Z</dcterms:created></item>
            <item><guid>1234</guid><title>A number</title></item>
            <item><guid>https://d.example/posts/4</guid><link>https://d.example/own/4</link><title>Own link</title></item>
            </channel></rss>
            """)
        #expect(rss.entries.map(\.title) == ["From Dublin Core", "Not a permalink", "A number", "Own link"])
        #expect(rss.entries.map(\.link) == ["https://d.example/posts/1", nil, nil, "https://d.example/own/4"])
        #expect(rss.entries[0].published == FeedDate.parse("2026-11-27T10:30:15Z"))
        #expect(rss.entries[0].updated == FeedDate.parse("2026-11-28T10:30:15Z"))
        #expect(rss.entries[1].published == FeedDate.parse("2026-11-26T10:30:15Z"))
        #expect(rss.entries.map(\.id) == ["https://d.example/posts/1", "https://d.example/posts/2", "1234", "https://d.example/posts/4"])
    }
}
