import ArgumentParser
import BlogctlKit
import ToolboxKit

extension Blogctl.Feeds {
    struct FeedsAdd: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Subscribe to feeds (or pages that link to one) by URL, each asked once first.",
            discussion: """
                Each URL is read before it is subscribed: a feed is subscribed and its entries \
                kept; a page is read for its feed, and not added when that feed is already \
                subscribed; a URL that is no feed or cannot be reached is refused (the exit \
                status says why) unless --force, which subscribes without asking.

                Examples:
                  blogctl feeds add https://example.org/atom.xml
                  blogctl feeds add --tag news https://example.org/
                """)

        @Argument(help: ArgumentHelp("The feeds' URLs.", valueName: "url"))
        var urls: [String]

        @Option(help: ArgumentHelp("A tag for the new subscriptions (repeatable).", valueName: "tag"))
        var tag: [String] = []

        @Flag(help: "Subscribe without asking the URL first.")
        var force = false

        @OptionGroup var common: CommonOptions

        func run() async throws {
            let outcome = try await SubscriptionAdding.add(urls, tags: tag, force: force, common: common)
            Tool.blogctl.say("subscribed to \(outcome.added) feed\(outcome.added == 1 ? "" : "s"); blogctl list reads them")
            if let refused = outcome.refused { throw refused }
        }
    }

    struct FeedsRemove: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove",
            abstract: "Unsubscribe from feeds, by URL or name, and forget their entries and read marks. Their cached bodies stay until blogctl cache clear.")

        @Argument(help: ArgumentHelp("The feeds' URLs or names.", valueName: "feed"), completion: .custom { _, _, prefix in
            Subscriptions.completions((try? Subscriptions.standard().load()) ?? [], prefix: prefix)
        })
        var feeds: [String]

        func run() throws {
            try SubscriptionListing.unsubscribe(feeds)
        }
    }
}
