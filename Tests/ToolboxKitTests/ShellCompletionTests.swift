import ArgumentParser
import Foundation
import Testing
import TestSupport
@testable import CoreKit
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
        // Several, nothing more in common: each a quoted word too, because M-* and
        // menu-complete put them on the line as they are (issue 46).
        #expect(ShellCompletion.offer(Self.hostile, typed: "b", shell: .bash)
                == ["list", "back\\\\slash", "bang\\!x", "bi$'\\xe2\\x80\\xae'di", "brace\\{a,b\\}"])
        #expect(ShellCompletion.offer(["k1$(touch F)", "k2`touch F`", "k3;touch F"], typed: "k", shell: .bash)
                == ["list", "k1\\$\\(touch\\ F\\)", "k2\\`touch\\ F\\`", "k3\\;touch\\ F"])
        #expect(ShellCompletion.offer(Self.hostile, typed: "zzz", shell: .bash) == [])
    }

    @Test func zshGetsValuesThenWhatItsMenuShows() {
        #expect(ShellCompletion.offer(["bi\u{202E}di", "back"], typed: "b", shell: .zsh) == ["back", "bi$'\\xe2\\x80\\xae'di", "", "back", "bi<U+202E>di"])
        // compadd -Q takes them as written: `!` and `^` quoted whatever banghist says.
        #expect(ShellCompletion.offer(["kC!!:s,c,$(touch F),:Q", "^x^y"], typed: "", shell: .zsh)
                == ["\\^x\\^y", "kC\\!\\!\\:s,c,\\$\\(touch\\ F\\),\\:Q", "", "^x^y", "kC!!:s,c,$(touch F),:Q"])
    }

    @Test func fishNeverListsWhatTheSanitiserWouldChange() {
        #expect(ShellCompletion.offer(["bi\u{202E}di", "back"], typed: "b", shell: .fish) == [])
        #expect(ShellCompletion.offer(["bi\u{202E}di", "back"], typed: "bi", shell: .fish) == ["bi\u{202E}di"])
        #expect(ShellCompletion.offer(["tab\there"], typed: "t", shell: .fish) == [])
        #expect(ShellCompletion.offer(["a", "ab"], typed: "", shell: .fish) == ["a", "ab"])
    }

    @Test func idsThatLookLikeOptionsWaitForTheEndOfOptions() {
        for shell in [CompletionShell.bash, .zsh, .fish] {
            #expect(ShellCompletion.offer(["--help", "-x", "ok"], typed: "", shell: shell, before: ["condtest", "show"]).contains { $0.contains("help") } == false)
            let early = ShellCompletion.offer(["--help"], typed: "--h", shell: shell, before: ["condtest", "show"])
            #expect(early.allSatisfy { $0.isEmpty })
            #expect(ShellCompletion.offer(["--help"], typed: "--h", shell: shell, before: ["condtest", "show", "--"]).contains("--help"))
        }
        #expect(ShellCompletion.offer(["--all"], typed: "", shell: .bash, before: ["devsync", "discard", "--"]) == ["insert", "--all"])
    }

    @Test func aFlagOnTheLineIsReadAsTheShellWillReadIt() {
        #expect(ShellCompletion.flagValue("--server", in: ["blogctl", "read", "--server", "'http://a b'"]) == "http://a b")
        #expect(ShellCompletion.flagValue("--server", in: ["blogctl", "--server=http://x", "read"]) == "http://x")
        #expect(ShellCompletion.flagValue("--server", in: ["blogctl", "read", "--server"]) == nil)
        #expect(ShellCompletion.flagValue("--server", in: ["blogctl", "read", "--", "--server", "x"]) == nil)
        #expect(ShellCompletion.unquoted("a$'\\x01\\xe2\\x80\\xae'b") == "a\u{01}\u{202E}b")
        #expect(ShellCompletion.unquoted("a$'\\x0") == "a")
    }

    @Test func linesThatCannotTravelAreNotOffered() {
        #expect(ShellCompletion.offer(["new\nline", "car\rret", "", "ok"], typed: "", shell: nil) == ["ok"])
    }

    @Test func matchingIsByBytesNotCanonicalEquivalence() {
        // "é" precomposed and decomposed are one Character to Swift, two ids to a server.
        #expect(ShellCompletion.offer(["caf\u{E9}", "cafe\u{301}"], typed: "cafe", shell: nil) == ["cafe\u{301}"])
    }

    /// The property, over every reply of every shell (issue 46): for generated ids, every
    /// word of every reply (one match, a common start, a list) is read back by bash and by
    /// zsh (with extendedglob) as exactly the bytes it stands for, unquoted and after an
    /// opening quote; a quote followed by a combining mark is still a quote.
    @Test func everyWordOfEveryReplyReadsBackAsItsBytes() throws {
        var generator = SeededGenerator(seed: 46)
        let alphabet = Array("ab09 '\"\\$`(){}[]*?!#~;&|<>=:,.-_@%^\t").map(String.init)
            + ["\u{202E}", "é", "\u{301}", "'\u{301}", "\"\u{301}", "ラ", "\u{1B}", "\u{9B}", "👨‍👩‍👧", "!!", "!-1", "^x^y"]
        var ids: [String] = []
        for index in 0..<120 {
            let length = Int.random(in: 1...10, using: &generator)
            ids.append("k\(index % 40)/" + (0..<length).map { _ in alphabet.randomElement(using: &generator)! }.joined())
        }
        // One id of 100,000 bytes of every hostile character, alone under its start.
        ids.append("k39/" + String(repeating: "$(x)`y`!!'\"\\ ", count: 7_700) + "\t~*")
        for shell in [CompletionShell.bash, .zsh] {
            var script = shell == .zsh ? "setopt extendedglob\n" : ""
            var expected: [String] = []
            for index in 0..<40 {
                let matches = ids.filter { $0.utf8.starts(with: "k\(index)/".utf8) }
                for opening in ["", "'", "\""] {
                    let reply = ShellCompletion.offer(ids, typed: opening + "k\(index)/", shell: shell)
                    let words: [String]
                    switch shell {
                    case .bash:
                        try #require(["insert", "extend", "list"].contains(reply.first ?? ""), "\(reply)")
                        words = Array(reply.dropFirst())
                        switch reply[0] {
                        case "list": expected += matches.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
                        case "extend": expected.append(ShellCompletion.unquoted(opening + reply[1] + opening))
                        default: expected += matches
                        }
                    default:
                        let blank = try #require(reply.firstIndex(of: ""))
                        words = Array(reply[..<blank])
                        expected += matches.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
                    }
                    for word in words { script += "printf '%s\\0' " + opening + word + opening + "\n" }
                }
            }
            // From a file: one id is 100,000 bytes, past what one argument may hold.
            let file = TemporaryFolders.make("completion") + "/script"
            try script.write(toFile: file, atomically: true, encoding: .utf8)
            let output = try run(shell == .bash ? "/bin/bash" : "/usr/bin/zsh", shell == .bash ? ["--norc", "--noprofile", file] : ["-f", file])
            let words = output.split(separator: 0, omittingEmptySubsequences: false).dropLast().map { String(decoding: $0, as: UTF8.self) }
            #expect(words.map { Array($0.utf8) } == expected.map { Array($0.utf8) }, "\(shell)")
            // An extended start is a start of every match it stands for.
            for index in 0..<40 {
                let reply = ShellCompletion.offer(ids, typed: "k\(index)/", shell: .bash)
                guard reply.first == "extend" else { continue }
                let start = Array(ShellCompletion.unquoted(reply[1]).utf8)
                #expect(ids.filter { $0.utf8.starts(with: "k\(index)/".utf8) }.allSatisfy { $0.utf8.starts(with: start) })
            }
        }
    }

    /// What the audit found (issue 46): `'` followed by a combining mark is one Character,
    /// and a Character-level `replacing` left it bare.
    @Test func aQuoteWithACombiningMarkIsStillAQuote() throws {
        let id = "'\u{301}'x"
        let reply = ShellCompletion.offer([id], typed: "'", shell: .bash)
        try #require(reply.count == 2)
        let output = try run("/bin/bash", ["--norc", "--noprofile", "-c", "printf '%s' '" + reply[1] + "'"])
        #expect(output == Array(id.utf8))
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
        #expect(zsh.contains("compadd -Q -U -l -d displays --"))
    }

    /// Issue 50: bash-completion sources the file; Debian's lintian warns of a `#!` line in it.
    @Test func theBashScriptHasNoInterpreterLine() {
        let bash = ShellCompletion.script("#!/bin/bash\n\n_t() {\n:\n}\n", shell: .bash, tool: "t")
        #expect(!bash.hasPrefix("#!"))
        #expect(bash.hasPrefix("\n"))
        #expect(ShellCompletion.withoutInterpreterLine("_t() { :; }") == "_t() { :; }")
        #expect(ShellCompletion.withoutInterpreterLine("#!/bin/bash") == "#!/bin/bash")
    }

    func run(_ shell: String, _ arguments: [String]) throws -> [UInt8] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: shell)
        process.arguments = arguments
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
