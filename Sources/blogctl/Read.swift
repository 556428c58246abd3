#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import BlogctlKit
import ToolboxKit
import BlogctlEngines

extension RenderFormat: ExpressibleByArgument {}

extension Blogctl {
    struct Read: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "read",
            abstract: "Read one post: its header, then the body rendered for the terminal.",
            discussion: """
                The body is fetched once and cached; later reads revalidate it with If-None-Match \
                and use the cached copy on 304. The post is marked read (see list and mark). While a body downloads, stderr shows a spinner and \
                then a progress bar. On a terminal, text taller than the screen goes through $PAGER \
                (default "less -R"; an empty PAGER turns this off). With --json, the post's metadata \
                and raw body.
                """)

        @Argument(help: "The post's id (as list shows it).", completion: .custom { words, index, prefix in PostIDCompletion.candidates(before: Array(words.prefix(index)), prefix: prefix) })
        var id: String

        @Option(help: "text (laid out for a terminal), markdown, or html (the body as it came).")
        var format: RenderFormat = .text

        @Option(help: ArgumentHelp("Columns to fill (default: the terminal's width, 80 when piped).", valueName: "n"))
        var width: Int?

        @Flag(help: "Use only the cache: no network.")
        var offline = false

        @Flag(name: .customLong("no-pager"), help: "Write to stdout even when the text is taller than the screen.")
        var noPager = false

        @OptionGroup var common: CommonOptions
        @OptionGroup var freshness: FreshnessOption

        func validate() throws {
            if let width, !(20...1000).contains(width) { throw ValidationError("--width must be between 20 and 1000") }
        }

        func run() async throws {
            // The marks of the server the post came from (a subscribed feed's, without --server).
            // A body fetched now is indexed by the same parse that lays it out (not before the
            // first line); JSON and HTML output lay nothing out, so the cache indexes it.
            let (loaded, server) = try await loadPost(id, offline: offline, maxAge: freshness.seconds, common: common,
                                                      indexesAsRendered: !common.json && format != .html)
            defer { loaded.indexer?.finish() }
            if common.verbose { StandardError.write("* body from \(loaded.source.rawValue)") }
            // Read once shown; a mark that cannot be written costs a warning, not the post.
            defer {
                do { try ReadMarks.standard(server: server).mark([loaded.metadata.id], read: true) } catch {
                    Tool.blogctl.warn("not marked read: \(error.message)")
                }
            }
            if common.json { return PostJSON.write(loaded.metadata, body: loaded.body) }
            let toTerminal = Terminal.isTTY(Terminal.standardOutput)
            let options = RenderOptions(
                format: format,
                width: width ?? (toTerminal ? Terminal.width() : 80),
                styled: Terminal.colorEnabled(),
                links: LinkResolver(for: loaded.metadata, server: server))
            // Laid out a piece at a time: to a pipe as it comes, to a terminal through the pager
            // once it is taller than the screen (a reader quitting the pager ends the command).
            guard toTerminal && !noPager && !Pager.isDisabled else {
                // A reader that leaves early (`| head`) ends the output, not the parse: the index
                // still gets the whole body from it (as the pager's reader quitting, below).
                var left = false
                try PostPage.render(loaded.metadata, body: loaded.body, options: options, indexing: loaded.indexer?.parse) { bytes in
                    guard !left else { return }
                    guard loaded.indexer != nil else { return StandardOutput.write(bytes: bytes) }
                    left = LocalFile.writeAll(1, bytes) == EPIPE
                }
                return
            }
            // Quitting the pager ends the process: the body is indexed on its own first.
            let paged = PagedOutput(readerQuit: {
                _ = try? ReadMarks.standard(server: server).mark([loaded.metadata.id], read: true)
                loaded.indexer?.finish()
            })
            try PostPage.render(loaded.metadata, body: loaded.body, options: options, indexing: loaded.indexer?.parse) { paged.write($0) }
            paged.finish()
        }
    }
}
