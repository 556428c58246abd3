import ArgumentParser
import ToolboxKit
import BlogctlEngines

struct Blogctl: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: Tool.blogctl.name,
        abstract: "List, group and sort blog posts; read one rendered in the terminal; keep a gzip post cache.",
        discussion: """
            Listing uses only the post summaries (/post-metadata): no body is downloaded until \
            a post is read. Bodies are cached gzip-compressed under $XDG_CACHE_HOME/blogctl, one folder per server \
            (zcat reads them) and revalidated with their ETag.

            The server (--server, $BLOGCTL_SERVER) may be a feed instead (RSS, Atom, JSON Feed), \
            or a web page that links to one: every command reads its entries as posts, from what \
            the server sends, whatever its URL looks like.

            Examples:
              blogctl list --group-by author --sort-by title
              blogctl list --group-by month | cut -f1,5
              blogctl read 3
              blogctl read 3 --format markdown > post.md
              blogctl prefetch --jobs 8 && blogctl read 3 --offline
              blogctl avatar 3 -o author.jpg
              blogctl list --unread --since 2018-08-01 --limit 5
              blogctl links 3 && blogctl open 3 1
              blogctl ui
              blogctl list --server https://example.org/blog/atom.xml
            """,
        version: ToolboxVersion.line(for: "blogctl"),
        subcommands: [List.self, Show.self, Read.self, Search.self, Links.self, Open.self, Enclosures.self, Download.self, Mark.self, Prefetch.self, Avatar.self, Cache.self, Feeds.self, UI.self,
                      ConfigCommand.self])
}

/// blogctl, as the toolbox binary runs it when it is called by that name.
public func blogctlMain(arguments: [String]) -> Never { ToolMain.main(Blogctl.self, arguments: arguments) }
