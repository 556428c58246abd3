import Testing
@testable import CoreKit
@testable import ToolboxKit

@Suite struct ServerURLTests {
    @Test func flagWinsOverEnvironment() throws {
        let url = try ServerURL.resolve(flag: "http://a:1/", toolVariable: "CONDTEST_SERVER",
                                        environment: ["CONDTEST_SERVER": "http://b:2", "TOOLBOX_SERVER": "http://c:3"])
        #expect(url.base == "http://a:1")
    }

    @Test func toolVariableThenToolboxThenDefault() throws {
        #expect(try ServerURL.resolve(flag: nil, toolVariable: "CONDTEST_SERVER",
                                      environment: ["CONDTEST_SERVER": "http://b:2", "TOOLBOX_SERVER": "http://c:3"]).base == "http://b:2")
        #expect(try ServerURL.resolve(flag: nil, toolVariable: "CONDTEST_SERVER",
                                      environment: ["TOOLBOX_SERVER": "http://c:3"]).base == "http://c:3")
        #expect(try ServerURL.resolve(flag: nil, toolVariable: "CONDTEST_SERVER", environment: [:]).base == "http://127.0.0.1:8106")
        #expect(try ServerURL.resolve(flag: nil, toolVariable: "CONDTEST_SERVER",
                                      environment: ["CONDTEST_SERVER": ""]).base == "http://127.0.0.1:8106")
    }

    @Test func rejectsWhatIsNotAnHTTPURL() {
        #expect(throws: ToolError.self) { try ServerURL("ftp://x") }
        #expect(throws: ToolError.self) { try ServerURL("127.0.0.1:8106") }
        #expect(throws: ToolError.self) { try ServerURL("http://") }
        #expect(throws: ToolError.self) { try ServerURL("http://h/?q=1") }
    }

    @Test func joinsPaths() throws {
        let url = try ServerURL("http://h:1/")
        #expect(url.url("/a/b") == "http://h:1/a/b")
        #expect(url.url("a") == "http://h:1/a")
        #expect(url.url("https://elsewhere/x") == "https://elsewhere/x")
    }
}

@Suite struct LeadingOptionsTests {
    let subcommands: Set<String> = ["list", "eval", "cache"]

    @Test func sharedOptionsBeforeTheSubcommandMoveAfterIt() {
        #expect(LeadingOptions.hoisted(["--server", "http://h", "list"], subcommands: subcommands) == ["list", "--server", "http://h"])
        #expect(LeadingOptions.hoisted(["--json", "--timeout=5", "-v", "eval", "7", "--", "-x"], subcommands: subcommands)
                == ["eval", "7", "--json", "--timeout=5", "-v", "--", "-x"])
        #expect(LeadingOptions.hoisted(["-q", "cache", "clear"], subcommands: subcommands) == ["cache", "clear", "-q"])
    }

    @Test func anythingElseIsLeftAlone() {
        #expect(LeadingOptions.hoisted(["list", "--json"], subcommands: subcommands) == ["list", "--json"])
        #expect(LeadingOptions.hoisted(["--server", "http://h"], subcommands: subcommands) == ["--server", "http://h"])
        #expect(LeadingOptions.hoisted(["--server"], subcommands: subcommands) == ["--server"])
        #expect(LeadingOptions.hoisted(["--bogus", "list"], subcommands: subcommands) == ["--bogus", "list"])
        #expect(LeadingOptions.hoisted(["--json", "nosuch"], subcommands: subcommands) == ["--json", "nosuch"])
    }
}

/// Issue 29: no credential in any message, whatever the URL holds; no_proxy as curl reads it.
@Suite struct RedactionAndNoProxyTests {
    @Test func passwordsNeverReachAMessage() {
        let cases = ["http://alice:S3cr/etPW@host/", "http://u:secret@\u{301}h", "http://u:s@cr@t@host:8106",
                     "https://u:secret@[::1]:x", "http://u:sec ret@host/?q=1"]
        for text in cases {
            do {
                let url = try ServerURL(text)
                #expect(!url.description.contains("secret") && !url.description.contains("S3cr") && !url.url("/x").contains("cr@t"), "\(text)")
            } catch {
                #expect(!error.message.contains("secret") && !error.message.contains("S3cr") && !error.message.contains("etPW"), "\(error.message)")
            }
        }
        for text in ["u:secret@proxy:99999", "http://u:secret@proxy:0", "ftp://u:secret@proxy:1", "u:secret@\u{301}proxy:x"] {
            #expect(throws: ToolError.self) { try ProxyChoice.parse(text) }
            do { _ = try ProxyChoice.parse(text) } catch { #expect(!error.message.contains("secret"), "\(error.message)") }
        }
        #expect(ServerURL.redacted("u:secret@proxy:99999") == "u:***@proxy:99999")
    }

    @Test func noProxyMatchesAddressesExactlyAndRanges() {
        #expect(!ProxyChoice.matches(host: "127.0.0.1", "0.1"))
        #expect(!ProxyChoice.matches(host: "127.0.0.1", "27.0.0.1"))
        #expect(ProxyChoice.matches(host: "127.0.0.1", "127.0.0.1"))
        #expect(ProxyChoice.matches(host: "127.0.0.1", "127.0.0.0/8"))
        #expect(ProxyChoice.matches(host: "10.1.2.3", "192.168.0.0/16, 10.0.0.0/8"))
        #expect(!ProxyChoice.matches(host: "11.1.2.3", "10.0.0.0/8"))
        #expect(ProxyChoice.matches(host: "::1", "[::1]"))
        #expect(ProxyChoice.matches(host: "fd00::5", "fd00::/8"))
        #expect(!ProxyChoice.matches(host: "fe00::5", "fd00::/8"))
        #expect(!ProxyChoice.matches(host: "example.com", "10.0.0.0/8"))
        #expect(ProxyChoice.matches(host: "api.example.com", ".example.com"))
        #expect(!ProxyChoice.matches(host: "badexample.com", "example.com"))
    }

    @Test func anArgumentStartingWithEqualsIsNoOption() {
        let subcommands: Set<String> = ["list"]
        #expect(LeadingOptions.hoisted(["=--server", "x", "list"], subcommands: subcommands) == ["=--server", "x", "list"])
        #expect(LeadingOptions.hoisted(["--server=x", "list"], subcommands: subcommands) == ["list", "--server=x"])
        #expect(LeadingOptions.hoisted(["--proxytunnel", "list"], subcommands: subcommands) == ["list", "--proxytunnel"])
    }

    /// Stems stay distinct when a file system ignores case, and one id gives one stem.
    @Test func fileStemsAreDistinctIgnoringCase() {
        var random = SeededGenerator(seed: 29)
        let alphabet = Array("aAbBzZ09-_.%~é\u{301}/ ".unicodeScalars)
        var seen: [String: [UInt8]] = [:]
        for _ in 0..<20_000 {
            var id = String.UnicodeScalarView()
            for _ in 0..<Int.random(in: 1...6, using: &random) { id.append(alphabet.randomElement(using: &random)!) }
            let text = String(id)
            let stem = ResourceID.fileStem(text)
            #expect(ResourceID.isFileStem(Substring(stem)))
            if let other = seen[stem.lowercased()] { #expect(other == Array(text.utf8), "\(text) and \(String(decoding: other, as: UTF8.self))") }
            seen[stem.lowercased()] = Array(text.utf8)
        }
        #expect(ResourceID.fileStem("a") != ResourceID.fileStem("A") && ResourceID.fileStem("a").lowercased() != ResourceID.fileStem("A").lowercased())
        // Names an older cache wrote (upper-case letters kept) are still recognised as ours.
        #expect(ResourceID.isFileStem("Post1"))
    }
}

/// Issue 29: a scheme is read by bytes, even when a combining mark follows its slashes.
@Suite struct SchemeByBytesTests {
    @Test func aCombiningMarkAfterTheSchemeDoesNotHideIt() throws {
        let url = try ServerURL("https://\u{30D}host:8443")
        #expect(url.isHTTPS && url.port == 8443)
        #expect(try ServerURL("HTTP://h").isHTTPS == false)
        #expect(url.requestURL("http://\u{30D}other/x") == "http://\u{30D}other/x")
    }

    /// blogctl's server may be a feed with a query (`?feed=rss2`): kept for the document, never
    /// on an API path; every other tool still refuses one. The trailing slash of a feed's path
    /// is kept for the document too (WordPress's `/feed/` redirects `/feed`).
    @Test func aDocumentsQueryAndTrailingSlashAreKeptWhereAllowed() throws {
        let feed = try ServerURL("https://alice:pw@example.org/blog/?feed=rss2&x=1", allowingQuery: true)
        #expect(feed.base == "https://example.org/blog" && feed.query == "feed=rss2&x=1")
        #expect(feed.resource == "https://example.org/blog/?feed=rss2&x=1")
        #expect(feed.requestURL("/post-metadata") == "https://example.org/blog/post-metadata")
        #expect(feed.description == "https://alice:***@example.org/blog?feed=rss2&x=1")
        #expect(!feed.description.contains("pw"))
        #expect(try ServerURL("https://example.org/feed/").resource == "https://example.org/feed/")
        #expect(try ServerURL("https://example.org/feed/").base == "https://example.org/feed")
        // The folder name is a key the library and the cache keep: ASCII letters, digits, `.`
        // and `-` of the host's first 64 code points, any other code point `_`.
        #expect(try ServerURL("http://Ex-ample.org:8080").folderName.hasPrefix("Ex-ample.org-8080-"))
        #expect(try ServerURL("https://b\u{FC}cher.\u{212A}.example/").folderName.hasPrefix("b_cher._.example-443-"))
        #expect(try ServerURL("http://" + String(repeating: "a", count: 70)).folderName.hasPrefix(String(repeating: "a", count: 64) + "-80-"))
        // Two queries, two servers, two cache folders.
        #expect(try ServerURL("http://h/?feed=a", allowingQuery: true).folderName != ServerURL("http://h/?feed=b", allowingQuery: true).folderName)
        #expect(try ServerURL("http://h/?", allowingQuery: true).query == nil)
        #expect(throws: ToolError.self) { try ServerURL("http://h/?q=1#top", allowingQuery: true) }
        #expect(throws: ToolError.self) { try ServerURL("http://h/?q=a b", allowingQuery: true) }
        #expect(throws: ToolError.self) { try ServerURL("http://?q=1", allowingQuery: true) }
        #expect(throws: ToolError.self) { try ServerURL.resolve(flag: "http://h/?q=1", toolVariable: "X_SERVER", environment: [:]) }
        #expect(try ServerURL.resolve(flag: "http://h/?q=1", toolVariable: "X_SERVER", environment: [:], allowingQuery: true).query == "q=1")
        // An `@` in the query of a URL with no path is no credentials (the authority ends at `?`).
        let mail = try ServerURL("http://h.example?to=a@b.example", allowingQuery: true)
        #expect(mail.user == nil && mail.host == "h.example" && mail.query == "to=a@b.example", "\(mail.base) \(mail.query ?? "-")")
        #expect(try ServerURL("http://u:p@h.example?to=a@b", allowingQuery: true).user == "u")
    }
}
