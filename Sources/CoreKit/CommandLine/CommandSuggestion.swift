/// "Did you mean" for a mistyped subcommand, as git and gh say it: `blogctl lst` names the
/// command it took for one and the nearest real ones, instead of "Unexpected argument".
public enum CommandSuggestion {
    /// The line for `word` when it is no subcommand of `names`, with the nearest ones (at most
    /// two edits away, or names that start with it); nil when `word` is one of them, looks like
    /// an option, or nothing is near.
    public static func message(tool: String, word: String, names: [String]) -> String? {
        guard !word.hasPrefix("-"), let near = didYouMean(word, among: names) else { return nil }
        return "unknown command \(Terminal.quote(word)) for \(tool); \(near)"
    }

    /// `did you mean "a" or "b"?` for the names of `names` near `word` (at most two edits
    /// away, or names that start with it); nil when `word` is one of them or nothing is near.
    /// Config keys and tool sections are suggested with it too.
    public static func didYouMean(_ word: String, among names: [String]) -> String? {
        guard !names.contains(word), word.utf8.count <= 64 else { return nil }
        let near = names.filter { name in
            name.hasPrefix(word) || distance(Array(word.utf8), Array(name.utf8)) <= min(2, max(name.utf8.count / 3, 1))
        }
        guard !near.isEmpty else { return nil }
        let quoted = near.map { "\"\($0)\"" }
        let choices = quoted.count == 1 ? quoted[0] : quoted.dropLast().joined(separator: ", ") + " or " + quoted.last!
        return "did you mean \(choices)?"
    }

    /// Edits (insert, delete, replace, swap two neighbours) from `a` to `b`.
    static func distance(_ a: [UInt8], _ b: [UInt8]) -> Int {
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous2 = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { current[j] = min(current[j], previous2[j - 2] + 1) }
            }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return previous[b.count]
    }
}
