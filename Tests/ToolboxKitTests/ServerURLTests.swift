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
