import ArgumentParser
import BlogctlKit
import ToolboxKit

extension Blogctl {
    struct Prefetch: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "prefetch",
            abstract: "Warm the cache: fetch every post body not cached yet, concurrently.",
            discussion: """
                Each post is asked for with HEAD first: a body whose ETag matches the cached one is \
                fresh, one larger than --max-size is skipped. One progress bar on stderr. Piped, one \
                ID<TAB>RESULT<TAB>BYTES line per post (fetched, fresh, skipped, failed); on a \
                terminal, a summary. Exit status 75 when some posts failed. With subscriptions \
                (blogctl feeds) and no server named, every feed is listed and prefetched in turn \
                (a FEED field first when piped); a feed that fails is named and fails alone.
                """)

        @Option(help: ArgumentHelp("Posts fetched at the same time.", valueName: "n"))
        var jobs = 4

        @Option(name: .customLong("max-size"),
                help: ArgumentHelp("Skip bodies larger than this (e.g. 1000000, 500K, 2M).", valueName: "bytes"))
        var maxSize = "1M"

        @OptionGroup var common: CommonOptions

        func validate() throws {
            guard (1...64).contains(jobs) else { throw ValidationError("--jobs must be between 1 and 64") }
            guard ByteSize.parse(maxSize) != nil else {
                throw ValidationError("invalid --max-size \"\(maxSize)\": use bytes, e.g. 1000000, 500K, 2M")
            }
        }

        func run() async throws {
            let limit = ByteSize.parse(maxSize) ?? 1_000_000
            let progress = ProgressDisplay(label: "prefetch", enabled: common.showsProgress, unit: .items)
            if progress.enabled { Interrupt.clearLineAndExit() }
            let report = PrefetchReport(mode: common.outputMode, maxSize: limit)
            let update: @Sendable (Int, Int) -> Void = { done, total in progress.update(done: Int64(done), total: Int64(total)) }
            if let subscriptions = try SubscriptionListing.inUse(common) {
                progress.start()
                let failedFeeds = await SubscriptionPrefetch.run(subscriptions, jobs: jobs, maxSize: limit, common: common,
                                                               progress: update, report: report.add)
                progress.finish()
                report.finish(quiet: common.quiet)
                if let failure = report.failure(failedFeeds: failedFeeds, of: subscriptions.count) { throw failure }
                return
            }
            let cache = try PostCache.standard(server: try common.serverURL(tool: .blogctl))
            try await common.withClient(tool: .blogctl, waitSpinner: false) { api in
                progress.start()
                defer { progress.finish() }
                try await Prefetcher(cache: cache, client: BlogClient(api: api), jobs: jobs, maxSize: limit)
                    .run(warn: { Tool.blogctl.warn($0) }, progress: update, report: report.add)
            }
            report.finish(quiet: common.quiet)
            if let failure = report.failure(failedFeeds: 0, of: 1) { throw failure }
        }
    }
}
