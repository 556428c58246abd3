import ArgumentParser
import BlogctlKit
import ToolboxKit

extension Blogctl {
    struct Open: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "open",
            abstract: "Open a post's link N in the browser.",
            discussion: """
                The browser is the first command of $BROWSER (colon-separated; %s stands for the \
                URL) that exists, else xdg-open. Only http and https links are opened. Without N, \
                a feed's entry opens its own page (its link); a post of the blog API has no web \
                page of its own (the API serves it as JSON, which blogctl read renders): nothing \
                is opened and the links are named. Exits 66 when there is no \
                browser, 65 when there is no link N.

                Examples:
                  blogctl open 1 3
                  BROWSER=w3m blogctl open 1
                """)

        @Argument(help: "The post's id (as list shows it).", completion: .custom { words, index, prefix in PostIDCompletion.candidates(before: Array(words.prefix(index)), prefix: prefix) })
        var id: String

        @Argument(help: ArgumentHelp("The link's number, as read and links show it.", valueName: "n"))
        var number: Int?

        @Flag(help: "Use only the cache: no network.")
        var offline = false

        @OptionGroup var common: CommonOptions
        @OptionGroup var freshness: FreshnessOption

        func validate() throws {
            if let number, number < 1 { throw ValidationError("the link's number starts at 1") }
        }

        func run() async throws {
            let (loaded, links) = try await loadPostAndLinks(id, offline: offline, maxAge: freshness.seconds, common: common)
            guard let number else {
                // A feed's entry has its page: its link.
                if let page = loaded.metadata.link { return try BrowserLauncher.open(page) }
                throw ToolError.badData("post \(Terminal.quote(id)) has no web page to open, only its \(links.count) link"
                    + "\(links.count == 1 ? "" : "s"): blogctl open \(id) N opens link N (blogctl links \(id) lists them)")
            }
            guard number <= links.count else {
                throw ToolError.badData("post \(Terminal.quote(id)) has \(links.count) link\(links.count == 1 ? "" : "s"), not \(number)")
            }
            try BrowserLauncher.open(links[number - 1])
        }
    }
}
