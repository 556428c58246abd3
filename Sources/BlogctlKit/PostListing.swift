import FoundationEssentials
import ToolboxKit

/// `list`'s output for arranged groups: a table under group headers on a terminal,
/// `[GROUP<TAB>]ID<TAB>DATE<TAB>AUTHOR<TAB>TITLE<TAB>SUMMARY` lines in a pipe, or a JSON array
/// of metadata objects (with `"group"` when grouped), always in display order. With
/// `isRead`, unread posts are marked `•` in the table and `"read"` is in the JSON; the piped
/// TSV columns never change, since scripts depend on them. A list of every subscription has a
/// FEED column before the id (after GROUP).
public enum PostListing {
    public static func render(_ groups: [PostGroup], grouped: Bool, mode: OutputMode,
                              isRead: ((PostMetadata) -> Bool)? = nil,
                              width: Int = Terminal.width(), bold: Bool = Terminal.colorEnabled()) -> String {
        var text = ""
        render(groups, grouped: grouped, mode: mode, isRead: isRead, width: width, bold: bold) { text += $0 }
        return text
    }

    /// The same text, handed to `write` in pieces: TSV a megabyte at a time, so that a pipe
    /// gets a list of 100,000 posts without its 16 MB ever held whole; a table and JSON at once.
    public static func render(_ groups: [PostGroup], grouped: Bool, mode: OutputMode,
                              isRead: ((PostMetadata) -> Bool)? = nil,
                              width: Int = Terminal.width(), bold: Bool = Terminal.colorEnabled(),
                              write: (String) -> Void) {
        let feeds = groups.contains { $0.posts.contains { $0.feed != nil } }
        switch mode {
        case .json:
            let items = groups.flatMap { group in
                group.posts.map { AnnotatedMetadata($0, key: "group", value: grouped ? group.name : nil, read: isRead?($0)) }
            }
            write(String(decoding: JSONCoding.encode(items, pretty: true), as: UTF8.self) + "\n")
        case .tsv:
            // Line by line into a piece sized once: no table of 100,000 rows held first.
            let pieceSize = 1 << 20
            var text = ""
            text.reserveCapacity(pieceSize + (16 << 10))
            for group in groups {
                for post in group.posts {
                    let fields = (feeds ? [post.feed ?? ""] : []) + [post.id, post.publishDate.map(ISO8601.format) ?? "", post.author.name, post.title, post.summary]
                    Table.appendTSV(grouped ? [group.name] + fields : fields, to: &text)
                    if text.utf8.count >= pieceSize {
                        write(text)
                        text.removeAll(keepingCapacity: true)
                    }
                }
            }
            if !text.isEmpty { write(text) }
        case .table:
            // One table for every row, so the columns line up across groups; headers between.
            // Narrow, they give way in the order a reader needs them: the summary goes, the
            // date shortens to its day, the title narrows to 24 columns, the author gives way,
            // then the title again (to 12); the id never, so that it can be typed back (issue 47).
            let first = (isRead == nil ? 0 : 1) + (feeds ? 1 : 0)
            var table = Table(columns: (isRead == nil ? [] : [""]) + (feeds ? ["FEED"] : []) + ["ID", "DATE", "AUTHOR", "TITLE", "SUMMARY"],
                              fits: (isRead == nil ? [] : [.keep]) + (feeds ? [.shrink(order: 3, minimum: 8)] : []) + [.keep, .keep,
                                                                      .shrink(order: 1, minimum: 0), .shrink(order: 2, minimum: 12),
                                                                      .shrink(order: 0, minimum: 0)])
            let (date, author, title, summary) = (first + 1, first + 2, first + 3, first + 4)
            table.steps = [.init(column: summary, minimum: 0), .init(column: date, minimum: 10), .init(column: title, minimum: 24),
                           .init(column: author, minimum: 0), .init(column: title, minimum: 12)]
            for group in groups {
                for post in group.posts {
                    let mark = isRead.map { [$0(post) ? "" : "•"] } ?? []
                    table.append(mark + (feeds ? [post.feed ?? ""] : []) + [post.id, DateDisplay.human(post.publishDate), post.author.name, post.title, post.summary])
                }
            }
            let lines = table.aligned(width: width, bold: bold).split(separator: "\n", omittingEmptySubsequences: false)
            guard grouped else { return write(table.aligned(width: width, bold: bold)) }
            var text = String(lines[0]) + "\n"
            var row = 1
            for (index, group) in groups.enumerated() {
                if index > 0 { text += "\n" }
                let header = Terminal.sanitizeField(group.name) + " (\(group.posts.count))"
                text += SGR.styled(header, SGR.bold, enabled: bold) + "\n"
                for _ in group.posts {
                    text += lines[row] + "\n"
                    row += 1
                }
            }
            write(text)
        }
    }
}
