import Foundation
import Testing

/// Completion as a user meets it: the scripts the tools generate, sourced in bash in a real
/// terminal, and Tab pressed. Ids come from the store, the saved post list and the last
/// condition list, offline.
@Suite struct CompletionEndToEndTests {
    @Test(arguments: ["bash", "zsh", "fish"])
    func tabCompletesIdsAndFiles(shellName: String) async throws {
        let sandbox = try Sandbox()
        let url = try await withMockd(["--quiet", "--latency", "0", "--failure-rate", "0"], sandbox: sandbox) { mockd throws -> String in
            let env = ["DEVSYNC_SERVER": mockd.url, "BLOGCTL_SERVER": mockd.url, "CONDTEST_SERVER": mockd.url]
            #expect(try runTool("devsync", ["pull", "-q"], sandbox: sandbox, environment: env).status == 0)
            #expect(try runTool("blogctl", ["list"], sandbox: sandbox, environment: env).status == 0)
            #expect(try runTool("condtest", ["list"], sandbox: sandbox, environment: env).status == 0)
            return mockd.url
        }
        // The server is gone: completing is offline.
        // Each shell as its users load completions: bash sources the script, zsh puts `_tool`
        // on its fpath and runs compinit, fish sources its file.
        var setup = "cd '\(sandbox.root)'; "
        try FileManager.default.createDirectory(atPath: sandbox.root + "/zfunc", withIntermediateDirectories: true)
        for tool in ["devsync", "blogctl", "condtest"] {
            let script = try runTool(tool, ["--generate-completion-script", shellName], sandbox: sandbox).stdout
            switch shellName {
            case "zsh": try script.write(toFile: sandbox.root + "/zfunc/_" + tool, atomically: true, encoding: .utf8)
            default: setup += "source '" + (try sandbox.write(tool + "." + shellName, script)) + "'; "
            }
        }
        if shellName == "zsh" { setup += "fpath=('\(sandbox.root)/zfunc' $fpath); autoload -U compinit; compinit -u; " }
        setup += "clear"
        _ = try sandbox.write("block-7.csv", "id,installationDate\n")
        _ = try sandbox.write("rollout.cases", "")
        let arguments = ["bash": ["--norc", "--noprofile"], "zsh": ["-f"], "fish": ["--no-config"]][shellName]!
        let shell = try TmuxSession(command: "/usr/bin/env", arguments: [shellName] + arguments, sandbox: sandbox,
                                    environment: ["PATH": Binaries.directory + ":/usr/bin:/bin", "PS1": "$ ", "DEVSYNC_SERVER": url, "BLOGCTL_SERVER": url],
                                    columns: 120, rows: 30)
        defer { shell.kill() }
        try shell.sendLiteral(setup)
        try shell.send("Enter")
        _ = try shell.waitForScreen { !$0.contains("clear") }

        func complete(_ typed: String, expect: String) throws {
            try shell.sendLiteral(typed)
            try shell.send("Tab")
            let screen = try shell.waitForScreen(limit: 10) { $0.contains(expect) }
            #expect(screen.contains(expect), "\(typed)")
            try shell.send("C-u")
            _ = try shell.waitForScreen { !$0.contains(expect) }
        }
        try complete("devsync show WWM-00", expect: "devsync show WWM-0001-12")
        try complete("devsync install CWM-0012-62 CWM-124", expect: "devsync install CWM-0012-62 CWM-1244-65")
        try complete("devsync import blo", expect: "devsync import block-7.csv")
        try complete("blogctl read mass", expect: "blogctl read massive")
        try complete("condtest show 5b8f1c3e9d1a4c0012a3b01", expect: "condtest show 5b8f1c3e9d1a4c0012a3b01")
        try complete("condtest test roll", expect: "condtest test rollout.cases")
        try complete("condtest eval -f roll", expect: "condtest eval -f rollout.cases")
    }
}

/// Issue 37: ids a server chose are data to every shell. Tab after a hostile start runs
/// nothing and puts exactly the id on the line, as the shell reads it back.
@Suite struct HostileCompletionEndToEndTests {
    static let ids = ["$(touch F)", "`touch G`", "quo'te", "dq\"x", "back\\slash", "brace{a,b}", "a:b", "sp ace", "bi\u{202E}di"]

    @Test(arguments: ["bash", "zsh", "fish"])
    func tabRunsNothingAndCompletesExactly(shellName: String) throws {
        let sandbox = try Sandbox()
        let shell = try condtestCompletionShell(shellName, ids: Self.ids, sandbox: sandbox, setup: "", rows: 40)
        defer { shell.kill() }
        // Each start is unique; the completed word is printed back between brackets.
        let starts = ["\\$": "$(touch F)", "\\`": "`touch G`", "quo": "quo'te", "dq": "dq\"x", "bac": "back\\slash",
                      "br": "brace{a,b}", "a": "a:b", "sp": "sp ace", "bi": "bi\u{202E}di"]
        for (typed, id) in starts.sorted(by: { $0.key < $1.key }) {
            try shell.sendLiteral("condtest show " + typed)
            try shell.send("Tab")
            // The line grown past what was typed says the completion happened.
            _ = try shell.waitForScreen(limit: 10) { screen in
                screen.split(separator: "\n").contains { $0.contains("condtest show " + typed) && !$0.hasSuffix("condtest show " + typed) }
            }
            try shell.send(shellName == "bash" ? "Home" : "C-a")
            try shell.sendLiteral("printf '<%s>\\n' ")
            try shell.send("Enter")
            let screen = try shell.waitForScreen(limit: 10) { $0.contains("<" + id + ">") }
            #expect(screen.contains("<" + id + ">"), "\(shellName): \(typed)")
            try shell.sendLiteral("clear")
            try shell.send("Enter")
            _ = try shell.waitForScreen { !$0.contains("<") }
        }
        #expect(!FileManager.default.fileExists(atPath: sandbox.root + "/F"))
        #expect(!FileManager.default.fileExists(atPath: sandbox.root + "/G"))
    }
}

/// Issue 46: every insertion path of every shell, with the audit's ids. bash: Tab, `M-*`
/// (insert-completions), `menu-complete`; zsh: Tab with banghist and extendedglob, and menu
/// select; ids that look like options only after `--`. Each completed line is run under
/// `printf '<%s>\n'`, which shows the words exactly as the shell read them.
@Suite struct CompletionInsertionPathsEndToEndTests {
    static let ids = ["k1$(touch F)", "k2`touch F`", "k3;touch F", "kC!!:s,c,$(touch F),:Q", "kB!-1x", "kH^x^y", "kT~/*{a,b}",
                      "--help"]

    func shell(_ name: String, sandbox: Sandbox, setup extra: String) throws -> TmuxSession {
        try condtestCompletionShell(name, ids: Self.ids, sandbox: sandbox, setup: extra, columns: 200)
    }

    /// Types `typed` after `condtest show `, presses `keys`, then runs the line under printf
    /// and returns what it printed between brackets.
    func complete(_ shell: TmuxSession, _ typed: String, keys: [String], home: String) throws -> [String] {
        try shell.sendLiteral("condtest show " + typed)
        for key in keys { try shell.send(key) }
        _ = try shell.waitForScreen(limit: 10) { screen in
            screen.split(separator: "\n").contains { $0.contains("condtest show " + typed) && !$0.hasSuffix("condtest show " + typed) }
        }
        try shell.send(home)
        try shell.sendLiteral("printf '<%s>\\n' ")
        try shell.send("Enter")
        let screen = try shell.waitForScreen(limit: 10) { $0.contains(">\n$") || $0.hasSuffix(">\n$ ") || $0.contains(">\n$ \n") }
        try shell.sendLiteral("clear")
        try shell.send("Enter")
        _ = try shell.waitForScreen { !$0.contains("<") }
        return screen.split(separator: "\n").filter { $0.hasPrefix("<") && $0.hasSuffix(">") }.map { String($0.dropFirst().dropLast()) }
    }

    @Test func bashInsertsExactWordsThroughEveryBinding() throws {
        let sandbox = try Sandbox()
        do {
            let bash = try shell("bash", sandbox: sandbox, setup: "")
            defer { bash.kill() }
            // Tab on a unique start; M-* with every match on the line at once.
            #expect(try complete(bash, "k1", keys: ["Tab"], home: "Home") == ["condtest", "show", "k1$(touch F)"])
            #expect(try complete(bash, "kC", keys: ["Tab"], home: "Home") == ["condtest", "show", "kC!!:s,c,$(touch F),:Q"])
            let all = try complete(bash, "k", keys: ["M-*"], home: "Home")
            #expect(all == ["condtest", "show"] + Self.ids.filter { $0.hasPrefix("k") }.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }, "\(all)")
            // --help is no candidate until the options are ended.
            #expect(try complete(bash, "-- --h", keys: ["Tab"], home: "Home") == ["condtest", "show", "--", "--help"])
        }
        do {
            let bash = try shell("bash", sandbox: sandbox, setup: "bind 'TAB: menu-complete'; bind 'set show-all-if-ambiguous on'; ")
            defer { bash.kill() }
            let first = try complete(bash, "k", keys: ["Tab"], home: "Home")
            #expect(first == ["condtest", "show", "k1$(touch F)"], "\(first)")
            let third = try complete(bash, "k", keys: ["Tab", "Tab", "Tab"], home: "Home")
            #expect(third == ["condtest", "show", "k3;touch F"], "\(third)")
        }
        #expect(!FileManager.default.fileExists(atPath: sandbox.root + "/F"))
    }

    @Test func zshInsertsExactWordsWhateverItsOptions() throws {
        let sandbox = try Sandbox()
        let zsh = try shell("zsh", sandbox: sandbox, setup: "setopt banghist extendedglob; zstyle ':completion:*' menu select; ")
        defer { zsh.kill() }
        for (typed, id) in [("kC", "kC!!:s,c,$(touch F),:Q"), ("kB", "kB!-1x"), ("kH", "kH^x^y"), ("kT", "kT~/*{a,b}"), ("k1", "k1$(touch F)")] {
            #expect(try complete(zsh, typed, keys: ["Tab"], home: "C-a") == ["condtest", "show", id], "\(typed)")
        }
        // Menu select over several: the first is inserted, quoted.
        let chosen = try complete(zsh, "k", keys: ["Tab", "Tab", "Enter"], home: "C-a")
        #expect(chosen.count == 3 && Self.ids.contains(chosen[2]), "\(chosen)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.root + "/F"))
    }
}

/// A shell in tmux with condtest's completion loaded as its users load it (bash and fish
/// source the script, zsh finds `_condtest` on its fpath through compinit), the condition ids
/// `condtest list` would have kept, then `setup` run and the screen cleared.
func condtestCompletionShell(_ name: String, ids: [String], sandbox: Sandbox, setup extra: String,
                             columns: Int = 120, rows: Int = 40) throws -> TmuxSession {
    try FileManager.default.createDirectory(atPath: sandbox.cacheHome + "/condtest", withIntermediateDirectories: true)
    chmod(sandbox.cacheHome + "/condtest", 0o700)
    _ = try sandbox.write("cache/condtest/ids", ids.joined(separator: "\n") + "\n")
    try FileManager.default.createDirectory(atPath: sandbox.root + "/zfunc", withIntermediateDirectories: true)
    let script = try runTool("condtest", ["--generate-completion-script", name], sandbox: sandbox).stdout
    var setup = "cd '\(sandbox.root)'; "
    if name == "zsh" {
        try script.write(toFile: sandbox.root + "/zfunc/_condtest", atomically: true, encoding: .utf8)
        setup += "fpath=('\(sandbox.root)/zfunc' $fpath); autoload -U compinit; compinit -u; "
    } else {
        setup += "source '" + (try sandbox.write("condtest." + name, script)) + "'; "
    }
    setup += extra + "clear"
    let arguments = ["bash": ["--norc", "--noprofile"], "zsh": ["-f"], "fish": ["--no-config"]][name] ?? []
    let shell = try TmuxSession(command: "/usr/bin/env", arguments: [name] + arguments, sandbox: sandbox,
                                environment: ["PATH": Binaries.directory + ":/usr/bin:/bin", "PS1": "$ "], columns: columns, rows: rows)
    try shell.sendLiteral(setup)
    try shell.send("Enter")
    _ = try shell.waitForScreen { !$0.contains("clear") }
    return shell
}
