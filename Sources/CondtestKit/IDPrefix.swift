import ToolboxKit

/// A condition named by the start of its id, as git takes a short hash: the one id it
/// begins, or an error that says which ids it could be.
public enum IDPrefix {
    public static func resolve(_ prefix: String, among ids: [String]) throws(ToolError) -> String {
        let matches = ids.filter { $0.utf8.starts(with: prefix.utf8) && $0.utf8.count > prefix.utf8.count }
        if matches.count == 1 { return matches[0] }
        if matches.count > 1 {
            let shown = matches.sorted().prefix(5).joined(separator: ", ") + (matches.count > 5 ? ", …" : "")
            throw .usage("ambiguous id \(Terminal.quote(prefix)): \(matches.count) conditions start with it (\(shown))")
        }
        let near = suggestions(for: prefix, among: ids)
        throw .missing("no condition \(Terminal.quote(prefix))" + (near.isEmpty ? "; condtest list shows them"
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
