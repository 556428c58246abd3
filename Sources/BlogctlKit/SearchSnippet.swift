/// The words around a match for `blogctl search` on a terminal: from the first field that
/// matched (body, summary, author, then title), centred on the first matched word, cut at
/// word boundaries with `…`, and named (`body: …the [engine] weaves…`).
public enum SearchSnippet {
    /// The fields in the order a match in them is shown.
    public static let fields = ["body", "summary", "author", "title"]

    /// `highlighted`: each field's whole text with its matches between `marks`, in `fields`
    /// order. Returns the field and the window around its first match; nil when none matched.
    public static func centred(_ highlighted: [String], marks: (String, String), radius: Int = 36) -> (field: String, text: String)? {
        for (name, text) in zip(fields, highlighted) {
            guard let mark = text.firstRange(of: marks.0) else { continue }
            // Only the title matched: the result's title column shows it already, so the
            // snippet is the summary's start rather than the title again (issue 47).
            if name == "title", highlighted.count > 1, let summary = start(of: highlighted[1], radius: radius) { return ("summary", summary) }
            let flat = Array(text.map { $0.isNewline || $0 == "\t" ? " " : $0 })
            let at = text.distance(from: text.startIndex, to: mark.lowerBound)
            var start = max(at - radius, 0)
            var end = min(at + radius, flat.count)
            // Whole words: move the cuts out to the spaces around them (within reason).
            while start > 0, flat[start - 1] != " ", at - start < radius + 12 { start -= 1 }
            while end < flat.count, flat[end] != " ", end - at < radius + 12 { end += 1 }
            var window = String(flat[start..<end]).split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
            // A mark cut in half would leave the rest of the line bold.
            if window.ranges(of: marks.0).count > window.ranges(of: marks.1).count { window += marks.1 }
            return (name, (start > 0 ? "…" : "") + window + (end < flat.count ? "…" : ""))
        }
        return nil
    }

    /// The first words of `text` (about twice `radius` characters, whole words), nil when it
    /// has none.
    static func start(of text: String, radius: Int) -> String? {
        let words = text.split(whereSeparator: { $0 == " " || $0.isNewline || $0 == "\t" })
        guard !words.isEmpty else { return nil }
        var kept = ""
        for word in words {
            if !kept.isEmpty && kept.count + word.count + 1 > 2 * radius { return kept + "…" }
            kept += (kept.isEmpty ? "" : " ") + word
        }
        return kept
    }
}
