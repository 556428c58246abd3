import ArgumentParser
import BlogctlKit
import ToolboxKit
import BlogctlEngines

extension Blogctl {
    struct Enclosures: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "enclosures",
            abstract: "List the files feed entries carry (a podcast's episodes), from the library.",
            discussion: """
                One line per file: the entry's id, its title, the file's size and length when \
                the feed says them, its type and URL (tab-separated in a pipe; with --json an \
                array of {"id", "title", "url", "type", "length", "duration"}, length in bytes \
                and duration in seconds). Without an id, every entry's files in the library: \
                the server's, or every subscription's, as the last list or refresh saw them. \
                No network: blogctl list refreshes the library. blogctl download ID fetches \
                an entry's files.

                Examples:
                  blogctl enclosures | grep audio/mpeg
                  blogctl enclosures e42 --json | jq -r '.[].url'
                """)

        @Argument(help: "Entries' ids (as list shows them); none: every entry.",
                  completion: .custom { words, index, prefix in PostIDCompletion.candidates(before: Array(words.prefix(index)), prefix: prefix) })
        var ids: [String] = []

        @OptionGroup var common: CommonOptions
        @OptionGroup var pager: PagerOption

        struct Row: Encodable {
            let id: String
            let title: String
            let url: String
            let type: String?
            let length: Int64?
            let duration: Int?
        }

        func run() async throws {
            let rows = try EnclosureLookup.entries(ids, common: common).flatMap { post in
                (post.enclosures ?? []).map { Row(id: post.id, title: post.title, url: $0.url, type: $0.type, length: $0.length, duration: $0.duration) }
            }
            if common.json {
                StandardOutput.printJSON(rows)
                return
            }
            if rows.isEmpty, common.outputMode == .table {
                return Tool.blogctl.say(ids.isEmpty ? "no entry in the library carries a file (blogctl list refreshes it)" : "no file in these posts")
            }
            // Ids shown as list shows them: the start that tells each apart, typed back whole.
            let idLength = common.outputMode == .table ? try Library.standard().acrossFeeds.idPrefixLength(of: try EnclosureLookup.servers(common)) : nil
            let table = Table(columns: ["ID", "TITLE", "SIZE", "LENGTH", "TYPE", "URL"],
                              rows: rows.map { row in
                                  [idLength.map { String(String.UnicodeScalarView(row.id.unicodeScalars.prefix($0))) } ?? row.id, row.title,
                                   row.length.map(ProgressDisplay.bytes) ?? "", row.duration.map(Enclosure.clock) ?? "", row.type ?? "", row.url]
                              },
                              fits: [.keep, .shrink(order: 2, minimum: 12), .keep, .keep,
                                     .shrink(order: 0, minimum: 0), .shrink(order: 1, minimum: 16, middle: true)])
            pager.print(table.render(common.outputMode))
        }
    }
}

/// The library's entries that `enclosures` and `download` work on.
enum EnclosureLookup {
    /// The entries named by `ids` (exactly, else the one id that starts so), in the servers
    /// in use (the named server, or every subscription); every entry when `ids` is empty.
    static func entries(_ ids: [String], common: CommonOptions) throws -> [PostMetadata] {
        let held = try Library.standard().acrossFeeds.entries(of: try servers(common)).map(\.post)
        guard !ids.isEmpty else { return held }
        return try ids.map { id in
            _ = try ResourceID.validate(id, kind: "post id")
            if let exact = held.first(where: { $0.id.utf8.elementsEqual(id.utf8) }) { return exact }
            let starting = held.filter { $0.id.utf8.starts(with: id.utf8) }
            guard starting.count == 1 else {
                throw starting.isEmpty
                    ? ToolError.notFound(what: "post \(Terminal.quote(id)) in the library (blogctl list refreshes it)")
                    : ToolError.usage("post id \(Terminal.quote(id)) starts \(starting.count) entries' ids; give more of it")
            }
            return starting[0]
        }
    }

    /// The servers in use: the named server, or every subscription's.
    static func servers(_ common: CommonOptions) throws -> [ServerURL] {
        if let subscriptions = try SubscriptionListing.inUse(common) { return subscriptions.compactMap(\.server) }
        return [try common.serverURL(tool: .blogctl)]
    }
}
