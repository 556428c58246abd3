import ArgumentParser
import Foundation
import Testing
@testable import ToolboxKit

/// Issue 37: completion candidates are data in every shell.
@Suite struct ShellCompletionTests {
    static let hostile = ["$(touch F)", "`touch G`", "quo'te", "dq\"x", "back\\slash", "brace{a,b}", "a:b", "x=y",
                          "bi\u{202E}di", "sp ace", "tab\there", "glob*?[x]", "~home", "#hash", "semi;colon&amp|pipe", "bang!x"]

    @Test func theWordTypedIsReadAsTheShellReadsIt() {
        #expect(ShellCompletion.unquoted("plain") == "plain")
        #expect(ShellCompletion.unquoted("'quo") == "quo")
        #expect(ShellCompletion.unquoted("'quo'\\''te'") == "quo'te")
        #expect(ShellCompletion.unquoted("\"dq\\\"x\"") == "dq\"x")
        #expect(ShellCompletion.unquoted("\"a\\b\"") == "a\\b")
        #expect(ShellCompletion.unquoted("back\\\\slash") == "back\\slash")
        #expect(ShellCompletion.unquoted("sp\\ ace") == "sp ace")
    }

    @Test func bashGetsOneQuotedWordOrACleanList() {
        #expect(ShellCompletion.offer(Self.hostile, typed: "$", shell: .bash) == ["insert", "\\$\\(touch\\ F\\)"])
        #expect(ShellCompletion.offer(Self.hostile, typed: "'quo", shell: .bash) == ["insert", "quo'\\''te"])
        #expect(ShellCompletion.offer(Self.hostile, typed: "\"ban", shell: .bash) == ["insert", "bang\"\\!\"x"])
        #expect(ShellCompletion.offer(["brace1", "brace2"], typed: "b", shell: .bash) == ["extend", "brace"])
        // Several, nothing more in common: the typed word, then what the menu shows.
        #expect(ShellCompletion.offer(Self.hostile, typed: "b", shell: .bash)
                == ["list", "b", "back\\slash", "bang!x", "bi<U+202E>di", "brace{a,b}"])
        #expect(ShellCompletion.offer(Self.hostile, typed: "zzz", shell: .bash) == [])
    }

    @Test func zshGetsValuesThenWhatItsMenuShows() {
        #expect(ShellCompletion.offer(["bi\u{202E}di", "back"], typed: "b", shell: .zsh) == ["back", "bi\u{202E}di", "", "back", "bi<U+202E>di"])
    }

    @Test func fishNeverListsWhatTheSanitiserWouldChange() {
        #expect(ShellCompletion.offer(["bi\u{202E}di", "back"], typed: "b", shell: .fish) == [])
        #expect(ShellCompletion.offer(["bi\u{202E}di", "back"], typed: "bi", shell: .fish) == ["bi\u{202E}di"])
        #expect(ShellCompletion.offer(["tab\there"], typed: "t", shell: .fish) == [])
        #expect(ShellCompletion.offer(["a", "ab"], typed: "", shell: .fish) == ["a", "ab"])
    }

    @Test func linesThatCannotTravelAreNotOffered() {
        #expect(ShellCompletion.offer(["new\nline", "car\rret", "", "ok"], typed: "", shell: nil) == ["ok"])
    }

    @Test func matchingIsByBytesNotCanonicalEquivalence() {
        // "é" precomposed and decomposed are one Character to Swift, two ids to a server.
        #expect(ShellCompletion.offer(["caf\u{E9}", "cafe\u{301}"], typed: "cafe", shell: nil) == ["cafe\u{301}"])
    }

    /// The property: for generated ids, a unique prefix completes to a word that bash reads
    /// back as exactly the id's bytes, unquoted and after an opening quote.
    @Test func bashReadsBackTheSameBytes() throws {
        var generator = SeededGenerator(seed: 37)
        let alphabet = Array("ab09 '\"\\$`(){}[]*?!#~;&|<>=:,.-_@%^\t") + ["\u{202E}", "é", "\u{301}", "ラ", "\u{1B}", "\u{9B}"]
        var ids: [String] = []
        for index in 0..<200 {
            let length = Int.random(in: 1...12, using: &generator)
            ids.append("k\(index)/" + String((0..<length).map { _ in alphabet.randomElement(using: &generator)! }))
        }
        var script = ""
        for (index, id) in ids.enumerated() {
            for opening in ["", "'", "\""] {
                let reply = ShellCompletion.offer(ids, typed: opening + "k\(index)/", shell: .bash)
                try #require(reply.count == 2 && reply[0] == "insert", "\(id)")
                let closing = opening
                script += "printf '%s\\0' " + opening + reply[1] + closing + "\n"
            }
        }
        let output = try runBash(script)
        let words = output.split(separator: 0, omittingEmptySubsequences: false).dropLast().map { String(decoding: $0, as: UTF8.self) }
        #expect(words == ids.flatMap { [$0, $0, $0] })
    }

    @Test func generatedScriptsTakeCandidatesAsData() {
        let bash = ShellCompletion.script("""
            __t_add_completions() { :; }

            _t() {
                __t_add_completions -W "$(__t_custom_complete ---completion show -- positional@0)"
            }
            """, shell: .bash, tool: "t")
        #expect(!bash.contains("__t_add_completions -W \"$(__t_custom_complete"))
        #expect(bash.contains("__t_add_data_completions \"$(__t_custom_complete"))
        #expect(bash.contains("__t_add_data_completions() {"))
        let zsh = ShellCompletion.script("x\n_t() {\n ':id:{__t_custom_complete ---completion show}'\n}", shell: .zsh, tool: "t")
        #expect(zsh.contains("{__t_custom_data_complete ---completion show}"))
        #expect(zsh.contains("compadd -l -d displays --"))
    }

    func runBash(_ script: String) throws -> [UInt8] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["--norc", "--noprofile", "-c", script]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return [UInt8](data)
    }
}

/// Issue 38: a mistyped subcommand gets the nearest ones, as git and gh suggest them.
@Suite struct CommandSuggestionTests {
    @Test func theNearestCommandsAreNamed() {
        let names = ["list", "show", "read", "search", "links", "open", "cache", "ui", "config", "help"]
        #expect(CommandSuggestion.message(tool: "blogctl", word: "lst", names: names) == "unknown command \"lst\" for blogctl; did you mean \"list\"?")
        #expect(CommandSuggestion.message(tool: "blogctl", word: "raed", names: names) == "unknown command \"raed\" for blogctl; did you mean \"read\"?")
        #expect(CommandSuggestion.message(tool: "blogctl", word: "sh", names: names) == "unknown command \"sh\" for blogctl; did you mean \"show\"?")
        #expect(CommandSuggestion.message(tool: "blogctl", word: "lnks", names: names)?.contains("\"links\"") == true)
        #expect(CommandSuggestion.message(tool: "blogctl", word: "list", names: names) == nil)
        #expect(CommandSuggestion.message(tool: "blogctl", word: "--json", names: names) == nil)
        #expect(CommandSuggestion.message(tool: "blogctl", word: "zzzzzz", names: names) == nil)
        #expect(CommandSuggestion.distance(Array("ab".utf8), Array("ba".utf8)) == 1)
    }
}

/// Issue 38: a day word with a time.
@Suite struct DayWordTimeTests {
    @Test func todayAndYesterdayTakeATime() throws {
        let now = try #require(ISO8601.parse("2024-10-01T15:00:00Z"))
        let input = DateInput(now: now, utcOffset: { _ in 3_600 })
        #expect(try input.value(of: "today 08:00").start == ISO8601.parse("2024-10-01T07:00:00Z"))
        #expect(try input.value(of: "Yesterday 17:30:15").start == ISO8601.parse("2024-09-30T16:30:15Z"))
        #expect(input.value("today 25:00") == nil)
        #expect(input.value("today") != nil)
    }
}
