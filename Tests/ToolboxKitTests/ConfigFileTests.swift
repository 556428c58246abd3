import Testing
import TestSupport
@testable import ToolboxKit

/// config.yml as gh's: shared keys, a mapping per tool over them, comments, quoted values;
/// every problem a warning with its line.
@Suite struct ConfigFileTests {
    @Test func sharedKeysAMappingPerToolAndComments() {
        let file = ConfigFile("""
            # every tool
            timeout: 10   # seconds
            server: "http://a:1/#not-a-comment"
            devsync:
              retries: 5
              pager: 'less -S'

            proxy: http://p:3128
            """)
        #expect(file.problems.isEmpty)
        #expect(file.entries == [
            .init(key: "timeout", value: "10", line: 2, section: nil),
            .init(key: "server", value: "http://a:1/#not-a-comment", line: 3, section: nil),
            .init(key: "retries", value: "5", line: 5, section: "devsync"),
            .init(key: "pager", value: "less -S", line: 6, section: "devsync"),
            .init(key: "proxy", value: "http://p:3128", line: 8, section: nil),
        ])
    }

    @Test func whatIsNotThisYAMLIsAProblemWithItsLine() {
        let file = ConfigFile("timeout 10\n  retries: 2\nserver: [a, b]\n\tpager: cat\nname: \"open\n")
        #expect(file.entries.isEmpty)
        #expect(file.problems.map(\.line) == [1, 2, 3, 4, 5])
    }

    @Test func theToolsMappingWinsAndBadValuesAreWarnings() throws {
        let folder = TemporaryFolders.make("config")
        let path = folder + "/config.yml"
        try LocalFile.writeAtomically(path, Array("timeout: 10\nretries: 99\ncolour: blue\ncondtest:\n  timeout: 3\nblgctl:\n  server: x\n".utf8), mode: 0o600)
        let settings = Settings(tool: Tool("condtest"), path: path)
        #expect(settings.number(.timeout) == 3)
        #expect(settings.values[.timeout]?.origin == path + ":5 (condtest:)")
        #expect(settings.integer(.retries) == nil)
        #expect(settings.warnings == [path + ":2: retries: expected a count, 0 to 20, found \"99\"", path + ":3: unknown key \"colour\"",
                                      path + ":7: unknown tool \"blgctl\""])
        let other = Settings(tool: Tool("devsync"), path: path)
        #expect(other.number(.timeout) == 10 && other.values[.timeout]?.origin == path + ":1")
        #expect(Settings(tool: Tool("devsync"), path: folder + "/none.yml").values.isEmpty)
    }

    @Test func variablesComeBeforeTheFile() throws {
        let folder = TemporaryFolders.make("config")
        let path = folder + "/config.yml"
        try LocalFile.writeAtomically(path, Array("server: http://file:1\n".utf8), mode: 0o600)
        let settings = Settings(tool: Tool("devsync"), path: path)
        #expect(try ServerURL.resolve(flag: nil, toolVariable: "DEVSYNC_SERVER", environment: [:], configured: settings.text(.server)).description
                == "http://file:1")
        #expect(try ServerURL.resolve(flag: nil, toolVariable: "DEVSYNC_SERVER", environment: ["TOOLBOX_SERVER": "http://env:2"],
                                      configured: settings.text(.server)).description == "http://env:2")
        let rows = ConfigCommand.rows(tool: Tool("devsync"), settings: settings, environment: ["DEVSYNC_SERVER": "http://own:3"])
        #expect(rows[0] == ["server", "http://own:3", "$DEVSYNC_SERVER"])
        #expect(ConfigCommand.rows(tool: Tool("devsync"), settings: settings, environment: [:])[0] == ["server", "http://file:1", path + ":1"])
    }
}
