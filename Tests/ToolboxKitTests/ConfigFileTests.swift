import Testing
import TestSupport
@testable import CoreKit
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
        try LocalFile.writeAtomically(path, Array("timeout: 10\nretries: 99\ncolour: blue\ncondtest:\n  timeout: 3\nblgctl:\n  server: x\ntimeuot: 5\n".utf8), mode: 0o600)
        let settings = Settings(tool: Tool("condtest"), path: path)
        #expect(settings.number(.timeout) == 3)
        #expect(settings.values[.timeout]?.origin == path + ":5 (condtest:)")
        #expect(settings.integer(.retries) == nil)
        #expect(settings.warnings == [path + ":2: retries: expected a count, 0 to 20, found \"99\"", path + ":3: unknown key \"colour\"",
                                      path + ":7: unknown tool \"blgctl\"; did you mean \"blogctl\"?",
                                      path + ":8: unknown key \"timeuot\"; did you mean \"timeout\"?"])
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

/// Issue 37: what the outside fuzzing found in the config file, each a regression test, and
/// the round-trip property: entries written as YAML read back the same.
@Suite struct ConfigFileFindingsTests {
    @Test func windowsLineEndsAreLineEnds() {
        let file = ConfigFile("timeout: 20\r\n\r\nretries: 3\r\n")
        #expect(file.problems.isEmpty)
        #expect(file.entries.map(\.value) == ["20", "3"])
        #expect(file.entries.map(\.line) == [1, 3])
        // A CR alone is a line break too, as YAML reads it (issue 46's fuzzing).
        let old = ConfigFile("timeout: 20\r\rretries: 3\r")
        #expect(old.problems.isEmpty)
        #expect(old.entries.map(\.value) == ["20", "3"])
        #expect(old.entries.map(\.line) == [1, 3])
    }

    @Test func yamlQuotingIsYAMLs() {
        let file = ConfigFile("""
            a: 'it''s'
            b: it's # a comment after an apostrophe
            c: "say \\"hi\\" \\\\ \\t \\u00e9"
            d: "tab\tinside"
            e: \u{3000}wide space kept\u{3000}
            f: \u{301}combining
            """)
        #expect(file.problems.isEmpty, "\(file.problems)")
        #expect(file.entries.map(\.value) == ["it's", "it's", "say \"hi\" \\ \t é", "tab\tinside", "\u{3000}wide space kept\u{3000}", "\u{301}combining"])
    }

    @Test func entriesWrittenAsYAMLReadBackTheSame() {
        var generator = SeededGenerator(seed: 37)
        let pieces = ["a", "Z", "0", " ", "'", "\"", "\\", "#", ":", "\t", "\n", "\r", "\r\n", "\u{301}", "\u{3000}", "\u{2028}",
                      "\u{FEFF}", "\u{1}", "\u{7F}", "\u{85}", "\u{08}", "\u{0C}", "\u{202E}", "\u{E0041}", "é", "ラ", "👨‍👩‍👧", "[", "{", "&", "*", "|", ">", "-", "!"]
        let keys = ["server", "timeout", "connect-timeout", "retries", "proxy", "noproxy", "cacert", "pager", "x_y", "K9"]
        for _ in 0..<500 {
            var entries: [ConfigFile.Entry] = []
            for _ in 0..<Int.random(in: 1...6, using: &generator) {
                let value = (0..<Int.random(in: 0...8, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
                let section = Bool.random(using: &generator) ? nil : ["condtest", "devsync"].randomElement(using: &generator)!
                entries.append(.init(key: keys.randomElement(using: &generator)!, value: value, line: 0, section: section))
            }
            let text = ConfigFile.render(entries)
            let back = ConfigFile(text)
            #expect(back.problems.isEmpty, "\(text.debugDescription)")
            // The top's entries first, then each mapping in the order it first appears.
            let order = entries.compactMap(\.section).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
            let ordered = entries.filter { $0.section == nil } + order.flatMap { section in entries.filter { $0.section == section } }
            #expect(back.entries.map { [$0.key, $0.value, $0.section ?? ""] } == ordered.map { [$0.key, $0.value, $0.section ?? ""] },
                    "\(text.debugDescription)")
        }
    }
}
