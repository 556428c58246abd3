import ArgumentParser
import BlogctlKit
import ToolboxKit

extension Blogctl.Feeds {
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
            let (subscriptions, added) = try Subscriptions.adding(urls, tags: tag, to: try file.load { Tool.blogctl.warn($0) }) {
                Tool.blogctl.warn($0)
            }
            try file.save(subscriptions)
            Tool.blogctl.say("subscribed to \(added) feed\(added == 1 ? "" : "s"); blogctl list reads them")
        }
    }

    struct FeedsRemove: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove",
            abstract: "Unsubscribe from feeds, by URL or name, and forget their entries and read marks. Their cached bodies stay until blogctl cache clear.")

        @Argument(help: ArgumentHelp("The feeds' URLs or names.", valueName: "feed"))
        var feeds: [String]

        func run() throws {
            try SubscribedFeeds.unsubscribe(feeds)
        }
    }
}
