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
                              isRead: ((PostMetadata) -> Bool)? = nil, idLength: Int? = nil,
                              width: Int = Terminal.width(), bold: Bool = Terminal.colorEnabled()) -> String {
        var text = ""
        render(groups, grouped: grouped, mode: mode, isRead: isRead, idLength: idLength, width: width, bold: bold) { text += $0 }
        return text
    }

    /// The same text, handed to `write` in pieces: TSV a megabyte at a time, so that a pipe
    /// gets a list of 100,000 posts without its 16 MB ever held whole; a table and JSON at once.
    /// `idLength`: the table shows each id's first that many scalars (`IDPrefix`), a form
    /// `read` takes back, so that a feed's long ids leave the title its room.
    public static func render(_ groups: [PostGroup], grouped: Bool, mode: OutputMode,
                              isRead: ((PostMetadata) -> Bool)? = nil, idLength: Int? = nil,
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
            // Grouped by feed, a FEED column would repeat each group's header: left out.
            let feedColumn = feeds && !(grouped && groups.allSatisfy { group in group.posts.allSatisfy { $0.feed?.utf8.elementsEqual(group.name.utf8) == true } })
            var table = PostListing.table(marks: isRead != nil, feeds: feedColumn)
            for group in groups {
                for post in group.posts { table.append(PostListing.tableRow(post, read: isRead.map { $0(post) }, feeds: feedColumn, idLength: idLength)) }
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

extension PostListing {
    /// The table `list` shows on a terminal, without its rows: its columns, and how they give
    /// way when narrow, in the order a reader needs them: the summary goes, the date shortens
    /// to its day, the title narrows to 24 columns, the author gives way, then the title again
    /// (to 12); the id never, so that it can be typed back (issue 47).
    static func table(marks: Bool, feeds: Bool) -> Table {
        let first = (marks ? 1 : 0) + (feeds ? 1 : 0)
        var table = Table(columns: (marks ? [""] : []) + (feeds ? ["FEED"] : []) + ["ID", "DATE", "AUTHOR", "TITLE", "SUMMARY"],
                          fits: (marks ? [.keep] : []) + (feeds ? [.shrink(order: 3, minimum: 8)] : []) + [.keep, .keep,
                                                                  .shrink(order: 1, minimum: 0), .shrink(order: 2, minimum: 12),
                                                                  .shrink(order: 0, minimum: 0)])
        let (date, author, title, summary) = (first + 1, first + 2, first + 3, first + 4)
        table.steps = [.init(column: summary, minimum: 0), .init(column: date, minimum: 10), .init(column: title, minimum: 24),
                       .init(column: author, minimum: 0), .init(column: title, minimum: 12)]
        return table
    }

    /// A post's row of `table(marks:feeds:)`: `read` nil when no marks are shown; its id's
    /// first `idLength` scalars when given.
    static func tableRow(_ post: PostMetadata, read: Bool?, feeds: Bool, idLength: Int? = nil) -> [String] {
        let id = idLength.map { String(String.UnicodeScalarView(post.id.unicodeScalars.prefix($0))) } ?? post.id
        return (read.map { [$0 ? "" : "•"] } ?? []) + (feeds ? [post.feed ?? ""] : [])
            + [id, DateDisplay.human(post.publishDate), post.author.name, post.title, post.summary]
    }

    /// A post as the JSON encoder writes `AnnotatedMetadata` in `render`'s array (sorted
    /// keys, indented two levels, absent values left out), without an encoder for each of a
    /// million posts. LibraryOrderTests compares the two.
    static func appendJSON(_ post: PostMetadata, group: String?, read: Bool?, to text: inout String) {
        func string(_ value: String) -> String { "\"" + String(decoding: PostJSON.escaped(value), as: UTF8.self) + "\"" }
        var fields: [(String, String)] = [("author", "{\n      \"image\" : \(string(post.author.image)),\n      \"name\" : \(string(post.author.name)),\n      \"title\" : \(string(post.author.title))\n    }")]
        if let base = post.base { fields.append(("base", string(base))) }
        if let enclosures = post.enclosures {
            // Rare enough for the encoder, its lines indented to their place.
            let encoded = String(decoding: JSONCoding.encode(enclosures, pretty: true), as: UTF8.self)
            fields.append(("enclosures", encoded.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\n    ")))
        }
        if let feed = post.feed { fields.append(("feed", string(feed))) }
        if let group { fields.append(("group", string(group))) }
        fields.append(("id", string(post.id)))
        if let link = post.link { fields.append(("link", string(link))) }
        if let picture = post.picture { fields.append(("picture", string(picture))) }
        fields.append(("postId", string(post.postId)))
        if let date = post.publishDate { fields.append(("publishDate", string(ISO8601.format(date)))) }
        if let read { fields.append(("read", read ? "true" : "false")) }
        fields.append(("summary", string(post.summary)))
        fields.append(("title", string(post.title)))
        text += "  {\n"
        for (index, (key, value)) in fields.enumerated() {
            text += "    \"" + key + "\" : " + value + (index == fields.count - 1 ? "\n" : ",\n")
        }
        text += "  }"
    }

    /// `list`'s output made as the posts come, in display order, none of them held: TSV and
    /// JSON a megabyte at a time; a table from a first pass that measured its columns and
    /// counted its groups (`measure`, then `laidOut`), since a table's widths and a group's
    /// header (its count) come before its rows. The same text `render` makes of the groups.
    struct Stream {
        let mode: OutputMode
        let grouped: Bool
        /// Whether read marks are shown (a column in the table, `"read"` in the JSON).
        let marks: Bool
        /// Whether a FEED column comes first (a list of every subscription); not in an empty table.
        private(set) var feeds: Bool
        let width: Int
        let bold: Bool
        /// How many scalars of each id the table shows (nil: whole).
        let idLength: Int?
        private var text = ""
        private var group: String?
        private var posts = 0
        /// The table's first pass: its columns' widths and its groups' sizes in order.
        private var measured: [Int] = []
        private var groupSizes: [Int] = []
        private var layout: Table.Layout?
        private var groupIndex = 0
        /// Whether every post measured is listed under its feed's name (grouped by feed): the
        /// FEED column would repeat the group's header, and is left out of the table.
        private var feedIsGroup = true

        init(mode: OutputMode, grouped: Bool, marks: Bool, feeds: Bool, idLength: Int? = nil,
             width: Int = Terminal.width(), bold: Bool = Terminal.colorEnabled()) {
            self.idLength = idLength
            self.mode = mode
            self.grouped = grouped
            self.marks = marks
            self.feeds = feeds
            self.width = width
            self.bold = bold
            measured = PostListing.table(marks: marks, feeds: feeds).columns.map(TextWidth.of)
        }

        /// The table's first pass: a post in display order.
        mutating func measure(_ post: PostMetadata, read: Bool, group: String) {
            Table.measure(PostListing.tableRow(post, read: marks ? read : nil, feeds: feeds, idLength: idLength), into: &measured)
            if post.feed?.utf8.elementsEqual(group.utf8) != true { feedIsGroup = false }
            if group != self.group || groupSizes.isEmpty {
                groupSizes.append(0)
                self.group = group
            }
            groupSizes[groupSizes.count - 1] += 1
        }

        /// The end of the first pass: the columns laid out in `width`.
        mutating func laidOut() {
            if groupSizes.isEmpty {
                feeds = false
                measured = PostListing.table(marks: marks, feeds: false).columns.map(TextWidth.of)
            } else if feeds, grouped, feedIsGroup {
                feeds = false
                measured.remove(at: marks ? 1 : 0)
            }
            layout = PostListing.table(marks: marks, feeds: feeds).layout(measured: measured, width: width)
            group = nil
        }

        /// The next post, in display order, of `group` ("" when not grouped).
        mutating func add(_ post: PostMetadata, read: Bool, group: String, write: (String) -> Void) {
            let starts = group != self.group || posts == 0
            self.group = group
            posts += 1
            switch mode {
            case .tsv:
                let fields = (feeds ? [post.feed ?? ""] : []) + [post.id, post.publishDate.map(ISO8601.format) ?? "", post.author.name, post.title, post.summary]
                Table.appendTSV(grouped ? [group] + fields : fields, to: &text)
            case .json:
                text += posts == 1 ? "[\n" : ",\n"
                PostListing.appendJSON(post, group: grouped ? group : nil, read: marks ? read : nil, to: &text)
            case .table:
                guard let layout else { return }
                if posts == 1 { text += SGR.styled(layout.line(PostListing.table(marks: marks, feeds: feeds).columns), SGR.bold, enabled: bold) + "\n" }
                if grouped, starts {
                    if posts > 1 { text += "\n" }
                    let size = groupIndex < groupSizes.count ? groupSizes[groupIndex] : 0
                    groupIndex += 1
                    text += SGR.styled(Terminal.sanitizeField(group) + " (\(size))", SGR.bold, enabled: bold) + "\n"
                }
                text += layout.line(PostListing.tableRow(post, read: marks ? read : nil, feeds: feeds, idLength: idLength)) + "\n"
            }
            if text.utf8.count >= 1 << 20 {
                write(text)
                text = ""
            }
        }

        /// The end of the list.
        mutating func finish(write: (String) -> Void) {
            switch mode {
            case .json: text += posts == 0 ? String(decoding: JSONCoding.encode([AnnotatedMetadata](), pretty: true), as: UTF8.self) + "\n" : "\n]\n"
            case .table where posts == 0: text += SGR.styled(PostListing.table(marks: marks, feeds: feeds).layout(measured: measured, width: width)
                .line(PostListing.table(marks: marks, feeds: feeds).columns), SGR.bold, enabled: bold) + "\n"
            default: break
            }
            if !text.isEmpty { write(text) }
            text = ""
        }
    }
}
