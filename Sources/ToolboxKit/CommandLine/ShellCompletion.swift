import ArgumentParser

/// Completion of ids that a server chose, in bash, zsh and fish: every candidate is data. It is
/// never expanded, evaluated or globbed by the shell, it completes to exactly its bytes as one
/// shell word, and a menu shows it only as the one sanitiser cleans it.
///
/// swift-argument-parser's generated scripts pass custom candidates through `compgen -W`
/// (bash), which expands `$(…)` and backquotes, and through `_describe` (zsh), which cuts at
/// `:` and shows controls raw. `script(_:shell:tool:)` keeps the rest of its script and
/// replaces those two paths with functions that add the candidates literally.
public enum ShellCompletion {
    /// The ids starting with the word typed so far (`typed`, as the shell has it: quotes and
    /// backslashes are read as the shell reads them), in the form the requesting shell's
    /// script takes them (bash: `bashReply`; zsh: the values, an empty line, then what its
    /// menu shows for each; fish: the values). An id that cannot
    /// travel as one line (a newline, a NUL; for fish a tab too) is not offered. Matching is
    /// by bytes, never by Swift's canonical equivalence.
    public static func offer(_ ids: [String], typed: String, before: [String] = []) -> [String] {
        offer(ids, typed: typed, shell: CompletionShell.requesting, before: before)
    }

    /// `before`: the words of the command line before the one completed. An id starting
    /// with `-` would be read as an option: it is offered only after a `--` there, which
    /// ends the options, as git and bash-completion's own helpers require.
    public static func offer(_ ids: [String], typed: String, shell: CompletionShell?, before: [String] = []) -> [String] {
        let word = unquoted(typed)
        let prefix = Array(word.utf8)
        let afterOptions = before.contains("--")  // character-level: whole words of an array
        var seen = Set<[UInt8]>()
        let matches = ids.filter { id in
            let bytes = Array(id.utf8)
            guard !bytes.isEmpty, !bytes.contains(0x0A), !bytes.contains(0x0D), !bytes.contains(0) else { return false }
            if bytes[0] == UInt8(ascii: "-") && !afterOptions { return false }
            if shell == .fish && bytes.contains(0x09) { return false }
            return bytes.starts(with: prefix) && seen.insert(bytes).inserted
        }.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        switch shell {
        case .bash?: return bashReply(matches, word: word, opening: opening(of: typed))
        case .zsh?:
            // compadd -Q -U: the values go on the line exactly as written here, quoted by
            // `shellWord` whatever zsh's options (banghist, extendedglob) say.
            return matches.map { quote($0, inside: opening(of: typed)) } + [""] + matches.map(display)
        default:
            // fish shows the values themselves in its menu: a list that holds one the
            // sanitiser would change is not shown; typing on until one matches inserts it.
            if matches.count > 1 && matches.contains(where: { display($0) != $0 }) { return [] }
            return matches
        }
    }

    /// The quote a word typed so far opens (readline and zsh keep it and close it after the
    /// completed word), by scalars: `'` followed by a combining mark is still a quote.
    static func opening(of typed: String) -> Unicode.Scalar? {
        typed.unicodeScalars.first.flatMap { $0 == "'" || $0 == "\"" ? $0 : nil }
    }

    /// For bash, which has no separate menu text: a first line saying what to do, then the
    /// words, every one of them a quoted word, because readline puts them on the line as
    /// they are through every binding (Tab, `M-*`, `menu-complete`) and shows them as they
    /// are (Tab Tab, `M-?`). `insert` one value; `extend` to the values' longest common
    /// start, without a space after it; `list` the values. Quoting is ours: bash's own
    /// (`complete -o filenames`) leaves `)` and backquotes bare.
    /// After an opening quote (`opening`), readline keeps it and closes it after the word,
    /// so the word is written as the inside of that quote.
    static func bashReply(_ matches: [String], word: String, opening: Unicode.Scalar? = nil) -> [String] {
        guard let first = matches.first else { return [] }
        if matches.count == 1 { return ["insert", quote(first, inside: opening)] }
        var common = Array(first.unicodeScalars)
        for match in matches.dropFirst() {
            common = Array(zip(common, match.unicodeScalars).prefix { $0 == $1 }.map(\.0))
        }
        let start = String(String.UnicodeScalarView(common))
        if start.utf8.count > word.utf8.count { return ["extend", quote(start, inside: opening)] }
        return ["list"] + matches.map { quote($0, inside: opening) }
    }

    /// The one quoting rule of every candidate in every shell: `text` written so that the
    /// shell reads back exactly its bytes, expands, evaluates, globs and history-expands
    /// nothing of it, and shows nothing raw that a terminal would obey. Outside quotes
    /// (`inside` nil), `shellWord`; inside an opening `'` or `"`, the rest of that quote.
    /// Written scalar by scalar, so the quoted form of a prefix is a prefix of the quoted
    /// form (readline inserts the longest common start of what it is given).
    public static func quote(_ text: String, inside opening: Unicode.Scalar? = nil) -> String {
        var word = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            let visible = Terminal.isShown(scalar)
            switch opening {
            case "'"?:
                // Nothing is special inside single quotes but the quote itself.
                if scalar == "'" { word.append(contentsOf: "'\\''".unicodeScalars) }
                else if visible { word.append(scalar) }
                else { word.append(contentsOf: ("'" + ansiC(scalar) + "'").unicodeScalars) }
            case "\""?:
                // `!`, which history expansion reads even inside double quotes, goes outside them.
                if scalar == "!" { word.append(contentsOf: "\"\\!\"".unicodeScalars) }
                else if !visible { word.append(contentsOf: ("\"" + ansiC(scalar) + "\"").unicodeScalars) }
                else {
                    if "$`\"\\".unicodeScalars.contains(scalar) { word.append("\\") }
                    word.append(scalar)
                }
            default:
                if !visible { word.append(contentsOf: ansiC(scalar).unicodeScalars) }
                else {
                    if !isPlain(scalar) { word.append("\\") }
                    word.append(scalar)
                }
            }
        }
        return String(word)
    }

    /// `text` as one word that bash, zsh and ksh93 (the shells whose completion the toolbox
    /// writes) read back as exactly `text`: `quote(text)`. Text holding a control character is
    /// written as ANSI-C `$'\x01'`, which POSIX sh before its 2024 edition and dash do not read;
    /// printable text (backslash escapes only) reads back in any POSIX shell.
    public static func shellWord(_ text: String) -> String { quote(text) }

    /// Letters, digits and `._-+/@%,` of ASCII, and every scalar above it that is shown as
    /// it is: what no shell treats specially, anywhere in a word but its start (`-`, `%`).
    static func isPlain(_ scalar: Unicode.Scalar) -> Bool {
        ("0"..."9").contains(scalar) || ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
            || "._-+/@%,".unicodeScalars.contains(scalar) || scalar.value > 0x7F
    }

    /// A scalar a terminal must not see raw, as bash and zsh's ANSI-C quoting `$'\xHH…'`
    /// of its UTF-8 bytes: exact, and plain ASCII on the line and in a menu.
    static func ansiC(_ scalar: Unicode.Scalar) -> String {
        let hex = Array("0123456789abcdef".unicodeScalars)
        var text = "$'"
        for byte in String(scalar).utf8 {
            text.unicodeScalars.append(contentsOf: ["\\", "x", hex[Int(byte >> 4)], hex[Int(byte & 15)]])
        }
        return text + "'"
    }

    /// How a menu shows a candidate: cleaned by the one rule, a tab as a space.
    public static func display(_ id: String) -> String { Terminal.sanitizeField(id) }

    /// A shell word as the shell reads it: 'single' quotes keep everything, "double" quotes
    /// keep all but `\` before `$`, backquote, `"`, `\` and newline; outside quotes `\` keeps
    /// the next character and `$'…'` reads ANSI-C escapes (`\xHH` a byte). An unterminated
    /// quote or escape ends the word (the user is still typing it). Read by bytes.
    public static func unquoted(_ word: String) -> String {
        var result: [UInt8] = []
        let bytes = Array(word.utf8)
        var index = 0
        var quote: UInt8?
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch (quote, byte) {
            case (nil, UInt8(ascii: "$")) where index < bytes.count && bytes[index] == UInt8(ascii: "'"):
                index += 1
                while index < bytes.count && bytes[index] != UInt8(ascii: "'") {
                    guard bytes[index] == UInt8(ascii: "\\") else { result.append(bytes[index]); index += 1; continue }
                    guard index + 1 < bytes.count else { index = bytes.count; break }
                    let escape = bytes[index + 1]
                    index += 2
                    switch escape {
                    case UInt8(ascii: "x"):
                        var value: UInt8 = 0
                        var digits = 0
                        while digits < 2, index < bytes.count, let digit = PercentEncoding.hexValue(bytes[index]) {
                            value = value << 4 | digit
                            digits += 1
                            index += 1
                        }
                        if digits > 0 && value != 0 { result.append(value) }  // NUL ends a word in bash
                    case UInt8(ascii: "n"): result.append(0x0A)
                    case UInt8(ascii: "t"): result.append(0x09)
                    case UInt8(ascii: "r"): result.append(0x0D)
                    case UInt8(ascii: "e"), UInt8(ascii: "E"): result.append(0x1B)
                    case UInt8(ascii: "a"): result.append(0x07)
                    case UInt8(ascii: "b"): result.append(0x08)
                    default: result.append(escape)
                    }
                }
                index += 1
            case (nil, UInt8(ascii: "'")), (nil, UInt8(ascii: "\"")): quote = byte
            case (UInt8(ascii: "'"), UInt8(ascii: "'")), (UInt8(ascii: "\""), UInt8(ascii: "\"")): quote = nil
            case (nil, UInt8(ascii: "\\")):
                if index < bytes.count { result.append(bytes[index]); index += 1 }
            case (UInt8(ascii: "\""), UInt8(ascii: "\\")):
                guard index < bytes.count else { break }
                let next = bytes[index]
                index += 1
                if !"$`\"\\\n".utf8.contains(next) { result.append(UInt8(ascii: "\\")) }
                result.append(next)
            default: result.append(byte)
            }
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// The value of `flag` in the words before the one completed (`--server URL` or
    /// `--server=URL`), as the shell will read it, or nil; the last one counts.
    public static func flagValue(_ flag: String, in words: [String]) -> String? {
        var value: String?
        for (index, word) in words.enumerated() {
            if word == "--" { break }
            if word == flag, index + 1 < words.count { value = unquoted(words[index + 1]) }
            if word.utf8.starts(with: (flag + "=").utf8) { value = unquoted(String(word.dropFirst(flag.count + 1))) }
        }
        return value
    }

    /// The script swift-argument-parser generates for `shell`, with custom candidates taken as data.
    public static func script(_ generated: String, shell: CompletionShell, tool: String) -> String {
        switch shell {
        case .bash:
            let call = "__\(tool)_add_completions -W \"$(__\(tool)_custom_complete"
            return withoutInterpreterLine(generated).replacing(call, with: "__\(tool)_add_data_completions \"$(__\(tool)_custom_complete")
                .replacing("\n_\(tool)() {\n", with: "\n" + bashDataCompletions(tool) + "\n_\(tool)() {\n")  // character-level: our own ASCII script
        case .zsh:
            let call = "{__\(tool)_custom_complete ---completion"
            return generated.replacing(call, with: "{__\(tool)_custom_data_complete ---completion")
                .replacing("\n_\(tool)() {\n", with: "\n" + zshDataCompletions(tool) + "\n_\(tool)() {\n")  // character-level: our own ASCII script
        default:
            // fish reads each line of the command's output as one candidate, inserts it
            // escaped and escapes what its pager shows.
            return generated
        }
    }

    /// bash-completion sources a completion file, never runs it: no `#!` line (Debian's
    /// policy; lintian warns of one).
    static func withoutInterpreterLine(_ script: String) -> String {
        guard script.utf8.starts(with: "#!".utf8),
              let end = script.utf8.firstIndex(of: UInt8(ascii: "\n")) else { return script }
        return String(script[script.utf8.index(after: end)...])
    }

    static func bashDataCompletions(_ tool: String) -> String {
        """
        # Candidates from the program are data, already quoted (see ShellCompletion.bashReply):
        # added to COMPREPLY as they are, never through compgen -W, which would expand them.
        __\(tool)_add_data_completions() {
            local -a reply=()
            local line
            while IFS='' read -r line; do reply+=("${line}"); done <<< "$1"
            compopt +o filenames 2>/dev/null
            case "${reply[0]}" in
            insert) COMPREPLY+=("${reply[1]}") ;;
            extend) compopt -o nospace 2>/dev/null; COMPREPLY+=("${reply[1]}") ;;
            list) COMPREPLY+=("${reply[@]:1}") ;;
            esac
        }

        """
    }

    static func zshDataCompletions(_ tool: String) -> String {
        """
        # Candidates from the program are data: the values, already quoted (see
        # ShellCompletion.quote), an empty line, then what the menu shows for each. compadd -Q
        # inserts each value as it is written, whatever the options in force (completion runs
        # with banghist unset, and zsh's own quoting would leave `!` bare); -U, because the
        # program has matched them already.
        __\(tool)_custom_data_complete() {
            local -a completions values displays
            completions=("${(@f)"$("${command_name}" "${@}" "${command_line[@]}")"}")
            completions=("${(@)completions[1,-2]}")
            local -i blank=${completions[(i)]}
            values=("${(@)completions[1,blank-1]}")
            displays=("${(@)completions[blank+1,-1]}")
            [[ "${#values[@]}" -gt 0 ]] && compadd -Q -U -l -d displays -- "${values[@]}"
        }

        """
    }
}
