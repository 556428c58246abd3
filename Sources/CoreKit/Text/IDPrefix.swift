/// Ids as git treats hashes: a table shows each id's shortest unique start (at least seven
/// characters, longer where two ids share more), and a command takes any unique start back.
/// So what a table shows can always be typed back (issue 47), where `5b8f1…b003` could not.
public enum IDPrefix {
    /// The fewest characters a table shows of an id: git's default abbreviation.
    public static let minimum = 7

    /// How many scalars of each id a table shows: one length for the whole column, the
    /// shortest that tells every two ids of `ids` apart and is at least `minimum`. An id
    /// shorter than it is shown whole.
    public static func length(_ ids: [String]) -> Int {
        let sorted = ids.map { Array($0.unicodeScalars) }.sorted { $0.lexicographicallyPrecedes($1) }
        var longest = minimum
        for index in sorted.indices.dropFirst() {
            let (a, b) = (sorted[index - 1], sorted[index])
            let shared = zip(a, b).prefix { $0 == $1 }.count
            // One more than they share; an id that is the start of the other is shown whole,
            // and typed back it is itself (an exact id is looked up before any prefix).
            longest = max(longest, shared + 1)
        }
        return longest
    }

    /// Each of `ids` shortened to the length that tells apart every id of `all` (by default
    /// `ids` themselves): a list that shows some of the ids a command resolves among is
    /// shortened by all of them, so what it shows is never ambiguous when typed back.
    public static func shortened(_ ids: [String], among all: [String]? = nil) -> [String] {
        let keep = length(all ?? ids)
        return ids.map { id in
            var scalars = String.UnicodeScalarView()
            scalars.append(contentsOf: id.unicodeScalars.prefix(keep))
            return String(scalars)
        }
    }

    /// The one id of `ids` that starts with `prefix`, or an error that says which ids it could
    /// be (`kind`: "condition", "post", "device"; `listing`: the command that shows them).
    public static func resolve(_ prefix: String, among ids: [String], kind: String = "condition",
                               listing: String = "condtest list") throws(ToolError) -> String {
        let matches = ids.filter { $0.utf8.starts(with: prefix.utf8) && $0.utf8.count > prefix.utf8.count }
        if matches.count == 1 { return matches[0] }
        if matches.count > 1 {
            let shown = matches.sorted().prefix(5).joined(separator: ", ") + (matches.count > 5 ? ", …" : "")
            throw .usage("ambiguous id \(Terminal.quote(prefix)): \(matches.count) \(kind)s start with it (\(shown))")
        }
        let near = suggestions(for: prefix, among: ids)
        throw .missing("no \(kind) \(Terminal.quote(prefix))" + (near.isEmpty ? "; \(listing) shows them"
            : "; did you mean " + near.joined(separator: ", ") + "?"))
    }

    /// Up to three ids sharing the longest start with `text`, at least four characters of it.
    static func suggestions(for text: String, among ids: [String]) -> [String] {
        let typed = Array(text.utf8)
        func shared(_ id: String) -> Int { zip(typed, id.utf8).prefix { $0 == $1 }.count }
        let ranked = ids.map { ($0, shared($0)) }.filter { $0.1 >= 4 }.sorted { ($1.1, $0.0) < ($0.1, $1.0) }
        return ranked.prefix(3).map(\.0)
    }
}
