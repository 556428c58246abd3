import ArgumentParser
import BlogctlKit
import FoundationEssentials
import ToolboxKit

extension Blogctl {
    struct Feeds: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "feeds",
            abstract: "Subscribe to feeds, as newsboat's urls file: list, add, remove, import and export OPML.",
            discussion: """
                Subscriptions live in $XDG_CONFIG_HOME/blogctl/urls, written as newsboat writes its \
                urls file: a feed's URL a line, then its tags, "~Name" naming it. With \
                subscriptions and no server named (no --server, $BLOGCTL_SERVER, $TOOLBOX_SERVER or \
                config.yml server), blogctl list refreshes and lists every feed, with a FEED column.

                Examples:
                  blogctl feeds add https://example.org/atom.xml https://example.com/blog/
                  blogctl feeds import subscriptions.opml
                  blogctl feeds export > subscriptions.opml
                  blogctl list --group-by feed
                """,
            subcommands: [FeedsList.self, FeedsAdd.self, FeedsRemove.self, FeedsImport.self, FeedsExport.self],
            defaultSubcommand: FeedsList.self)
    }
}

extension Blogctl.Feeds {
    struct FeedsList: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List the subscriptions: name, URL, entries, unread, last update, last error.",
            discussion: "Piped: NAME<TAB>URL<TAB>ENTRIES<TAB>UNREAD<TAB>UPDATED<TAB>ERROR lines. From the cache alone: no network.")

        @Flag(help: "Print JSON.")
        var json = false

        @OptionGroup var pager: PagerOption

        struct Row: Encodable {
            let name: String
            let url: String
            let entries: Int
            let unread: Int
            let updated: Date?
            let error: String?
        }

        func run() throws {
            let subscriptions = try Subscriptions.standard().load { Tool.blogctl.warn($0) }
            let rows = subscriptions.map { subscription -> Row in
                guard let server = try? ServerURL(subscription.url) else {
                    return Row(name: subscription.title, url: subscription.url, entries: 0, unread: 0, updated: nil, error: "not a URL")
                }
                let listing = ((try? PostCache.standard(server: server).savedListing()) ?? nil) ?? []
                let marks = (try? ReadMarks.standard(server: server).load()) ?? ReadMarks.IDs()
                let name = !subscription.title.isEmpty ? subscription.title : FeedHealth.title(server: server) ?? server.host
                return Row(name: name, url: ServerURL.redactedIfCredentials(subscription.url),
                           entries: listing.count, unread: listing.count { !marks.contains($0.id) },
                           updated: FeedHealth.lastUpdate(server: server), error: FeedHealth.lastError(server: server))
            }
            let mode = OutputMode(json: json)
            if mode == .json { return StandardOutput.printJSON(rows) }
            var table = Table(columns: ["NAME", "URL", "ENTRIES", "UNREAD", "UPDATED", "ERROR"])
            for row in rows {
                table.append([row.name, row.url, String(row.entries), String(row.unread),
                              row.updated.map { mode == .table ? DateDisplay.human($0) : ISO8601.format($0) } ?? (mode == .table ? "never" : ""),
                              row.error ?? ""])
            }
            if rows.isEmpty, mode == .table { return Tool.blogctl.say("no subscriptions: blogctl feeds add URL subscribes to a feed") }
            pager.print(table.render(mode))
        }
    }

    struct FeedsAdd: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Subscribe to feeds (or pages that link to one) by URL.")

        @Argument(help: ArgumentHelp("The feeds' URLs.", valueName: "url"))
        var urls: [String]

        @Option(help: ArgumentHelp("A tag for the new subscriptions (repeatable).", valueName: "tag"))
        var tag: [String] = []

        func run() throws {
            let file = Subscriptions.standard()
            var subscriptions = try file.load { Tool.blogctl.warn($0) }
            var added = 0
            for url in urls {
                let server = try ServerURL(url)
                let text = url.trimmingSpaces()
                guard !subscriptions.contains(where: { (try? ServerURL($0.url)) == server }) else {
                    Tool.blogctl.warn("already subscribed: \(Terminal.quote(ServerURL.redacted(text)))")
                    continue
                }
                subscriptions.append(FeedSubscription(url: text, title: "", tags: tag))
                added += 1
            }
            try file.save(subscriptions)
            Tool.blogctl.say("subscribed to \(added) feed\(added == 1 ? "" : "s"); blogctl list reads them")
        }
    }

    struct FeedsRemove: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove",
            abstract: "Unsubscribe from feeds, by URL or name. What was cached of them stays until blogctl cache clear.")

        @Argument(help: ArgumentHelp("The feeds' URLs or names.", valueName: "feed"))
        var feeds: [String]

        func run() throws {
            let file = Subscriptions.standard()
            var subscriptions = try file.load { Tool.blogctl.warn($0) }
            for feed in feeds {
                let server = try? ServerURL(feed)
                let before = subscriptions.count
                subscriptions.removeAll { subscription in
                    subscription.title == feed || subscription.url == feed || (server != nil && (try? ServerURL(subscription.url)) == server)
                }
                if subscriptions.count == before {
                    throw ToolError.notFound(what: "subscription \(Terminal.quote(ServerURL.redactedIfCredentials(feed)))")
                }
            }
            try file.save(subscriptions)
        }
    }

    struct FeedsImport: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract: "Subscribe to every feed of an OPML file (1.0 or 2.0); its folders become tags.",
            discussion: "Feeds already subscribed to are left as they are. - reads standard input.")

        @Argument(help: ArgumentHelp("The OPML file.", valueName: "file"))
        var file: String

        func run() throws {
            let bytes = file == "-" ? try LocalFile.read(descriptor: 0, path: "standard input", limit: 64 << 20)
                : try LocalFile.read(file, limit: 64 << 20)
            let list = try OPML.read(Data(bytes))
            let urls = Subscriptions.standard()
            var subscriptions = try urls.load { Tool.blogctl.warn($0) }
            var added = 0
            for subscription in list.subscriptions {
                guard let server = try? ServerURL(subscription.url),
                      !subscriptions.contains(where: { (try? ServerURL($0.url)) == server }) else { continue }
                subscriptions.append(subscription)
                added += 1
            }
            try urls.save(subscriptions)
            var line = "imported \(added) feed\(added == 1 ? "" : "s")"
            if list.subscriptions.count > added { line += ", \(list.subscriptions.count - added) already subscribed" }
            if list.skipped > 0 { line += ", \(list.skipped) outline\(list.skipped == 1 ? "" : "s") without an http(s) feed left out" }
            Tool.blogctl.say(line)
        }
    }

    struct FeedsExport: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "export",
            abstract: "Print the subscriptions as OPML 2.0, tags as folders: what other readers import.")

        func run() throws {
            StandardOutput.print(OPML.write(try Subscriptions.standard().load { Tool.blogctl.warn($0) }))
        }
    }
}
