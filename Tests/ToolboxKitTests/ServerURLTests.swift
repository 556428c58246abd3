import Testing
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
