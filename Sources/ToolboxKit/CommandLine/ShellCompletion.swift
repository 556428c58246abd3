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
    public static func offer(_ ids: [String], typed: String) -> [String] {
        offer(ids, typed: typed, shell: CompletionShell.requesting)
    }

    public static func offer(_ ids: [String], typed: String, shell: CompletionShell?) -> [String] {
        let word = unquoted(typed)
        let prefix = Array(word.utf8)
        var seen = Set<[UInt8]>()
        let matches = ids.filter { id in
            let bytes = Array(id.utf8)
            guard !bytes.isEmpty, !bytes.contains(0x0A), !bytes.contains(0x0D), !bytes.contains(0) else { return false }
            if shell == .fish && bytes.contains(0x09) { return false }
            return bytes.starts(with: prefix) && seen.insert(bytes).inserted
        }.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        switch shell {
        case .bash?: return bashReply(matches, word: word, opening: typed.unicodeScalars.first.flatMap { $0 == "'" || $0 == "\"" ? $0 : nil })
        case .zsh?: return matches + [""] + matches.map(display)
        default:
            // fish shows the values themselves in its menu: a list that holds one the
            // sanitiser would change is not shown; typing on until one matches inserts it.
            if matches.count > 1 && matches.contains(where: { display($0) != $0 }) { return [] }
            return matches
        }
    }

    /// For bash, which has no separate menu text: a first line saying what to do, then the
    /// words. `insert` one value, quoted as a shell word; `extend` to the values' longest
    /// common start, quoted, without a space after it; `list` the word typed, then the
    /// cleaned forms: with the word among them, bash inserts none of theirs. Quoting is ours:
    /// bash's own (`complete -o filenames`) leaves `)` and backquotes bare.
    /// After an opening quote (`opening`), readline keeps it and closes it after the word,
    /// so the word is written as the inside of that quote.
    static func bashReply(_ matches: [String], word: String, opening: Unicode.Scalar? = nil) -> [String] {
        func quoted(_ text: String) -> String {
            switch opening {
            case "'"?: return text.replacing("'", with: "'\\''")
            case "\""?: return quotedInside(text)
            default: return shellWord(text)
            }
        }
        guard let first = matches.first else { return [] }
        if matches.count == 1 { return ["insert", quoted(first)] }
        var common = Array(first.unicodeScalars)
        for match in matches.dropFirst() {
            common = Array(zip(common, match.unicodeScalars).prefix { $0 == $1 }.map(\.0))
        }
        let start = String(String.UnicodeScalarView(common))
        if start.utf8.count > word.utf8.count { return ["extend", quoted(start)] }
        return ["list", word] + matches.map(display)
    }

    /// `text` as one word that a POSIX shell reads back as exactly `text`: every ASCII
    /// character but letters, digits and `._-+/@%,` behind a backslash (bash's word breaks
    /// `:` and `=` included); other scalars as they are, which no shell treats specially.
    public static func shellWord(_ text: String) -> String {
        var word = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            let plain = ("0"..."9").contains(scalar) || ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
                || "._-+/@%,".unicodeScalars.contains(scalar) || scalar.value > 0x7F
            if !plain { word.append("\\") }
            word.append(scalar)
        }
        return String(word)
    }

    /// `text` inside double quotes: `$`, backquote, `"` and `\` behind a backslash; `!`,
    /// which history expansion reads even there, outside them (`"a"\!"b"`).
    static func quotedInside(_ text: String) -> String {
        var word = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if scalar == "!" {
                word.append(contentsOf: "\"\\!\"".unicodeScalars)
                continue
            }
            if "$`\"\\".unicodeScalars.contains(scalar) { word.append("\\") }
            word.append(scalar)
        }
        return String(word)
    }

    /// How a menu shows a candidate: cleaned by the one rule, a tab as a space.
    public static func display(_ id: String) -> String { Terminal.sanitizeField(id) }

    /// A shell word as the shell reads it: 'single' quotes keep everything, "double" quotes
    /// keep all but `\` before `$`, backquote, `"`, `\` and newline; outside quotes `\` keeps
    /// the next character. An unterminated quote ends the word (the user is still typing it).
    public static func unquoted(_ word: String) -> String {
        var result = String.UnicodeScalarView()
        var scalars = word.unicodeScalars.makeIterator()
        var quote: Unicode.Scalar?
        while let scalar = scalars.next() {
            switch (quote, scalar) {
            case (nil, "'"), (nil, "\""): quote = scalar
            case ("'", "'"), ("\"", "\""): quote = nil
            case (nil, "\\"):
                if let next = scalars.next() { result.append(next) }
            case ("\"", "\\"):
                guard let next = scalars.next() else { break }
                if !["$", "`", "\"", "\\", "\n"].contains(next) { result.append("\\") }
                result.append(next)
            default: result.append(scalar)
            }
        }
        return String(result)
    }

    /// The script swift-argument-parser generates for `shell`, with custom candidates taken as data.
    public static func script(_ generated: String, shell: CompletionShell, tool: String) -> String {
        switch shell {
        case .bash:
            let call = "__\(tool)_add_completions -W \"$(__\(tool)_custom_complete"
            return generated.replacing(call, with: "__\(tool)_add_data_completions \"$(__\(tool)_custom_complete")
                .replacing("\n_\(tool)() {\n", with: "\n" + bashDataCompletions(tool) + "\n_\(tool)() {\n")
        case .zsh:
            let call = "{__\(tool)_custom_complete ---completion"
            return generated.replacing(call, with: "{__\(tool)_custom_data_complete ---completion")
                .replacing("\n_\(tool)() {\n", with: "\n" + zshDataCompletions(tool) + "\n_\(tool)() {\n")
        default:
            // fish reads each line of the command's output as one candidate, inserts it
            // escaped and escapes what its pager shows.
            return generated
        }
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
        # Candidates from the program are data: the values, an empty line, then what the menu
        # shows for each; compadd inserts each value quoted, exactly as it is.
        __\(tool)_custom_data_complete() {
            local -a completions values displays
            completions=("${(@f)"$("${command_name}" "${@}" "${command_line[@]}")"}")
            completions=("${(@)completions[1,-2]}")
            local -i blank=${completions[(i)]}
            values=("${(@)completions[1,blank-1]}")
            displays=("${(@)completions[blank+1,-1]}")
            [[ "${#values[@]}" -gt 0 ]] && compadd -l -d displays -- "${values[@]}"
        }

        """
    }
}
