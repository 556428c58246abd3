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
            if let subscriptions = try SubscribedFeeds.inUse(common) {
                progress.start()
                let (results, failedFeeds) = await SubscribedPrefetch.run(subscriptions, jobs: jobs, maxSize: limit, common: common) { done, total in
                    progress.update(done: Int64(done), total: Int64(total))
                }
                progress.finish()
                report(results)
                try fail(results, failedFeeds: failedFeeds, of: subscriptions.count)
                return
            }
            let cache = try PostCache.standard(server: try common.serverURL(tool: .blogctl))
            let results = try await common.withClient(tool: .blogctl, waitSpinner: false) { api in
                progress.start()
                defer { progress.finish() }
                return try await Prefetcher(cache: cache, client: BlogClient(api: api), jobs: jobs, maxSize: limit)
                    .run(warn: { Tool.blogctl.warn($0) }) { done, total in progress.update(done: Int64(done), total: Int64(total)) }
            }
            report(results)
            try fail(results, failedFeeds: 0, of: 1)
        }

        /// Exit 75 when a post, or a subscribed feed's list, could not be fetched.
        private func fail(_ results: [Prefetcher.Result], failedFeeds: Int, of feeds: Int) throws {
            let failed = results.filter { $0.outcome == .failed }
            if !failed.isEmpty {
                throw ToolError.tryLater("\(failed.count) of \(results.count) posts could not be fetched: \(failed[0].detail)")
            }
            if failedFeeds > 0 { throw ToolError.tryLater("\(failedFeeds) of \(feeds) feeds could not be listed") }
        }

        private func report(_ results: [Prefetcher.Result]) {
            switch common.outputMode {
            case .json:
                StandardOutput.printJSON(results)
            case .tsv:
                StandardOutput.print(Table(columns: [], rows: results.map { ($0.feed.map { [$0] } ?? []) + [$0.id, $0.outcome.rawValue, String($0.bytes)] }).tsv())
            case .table:
                guard !common.quiet else { return }
                var counts: [String] = []
                for outcome in Prefetcher.Outcome.allCases {
                    let count = results.count { $0.outcome == outcome }
                    if count > 0 { counts.append("\(count) \(outcome.rawValue)") }
                }
                let skipped = results.filter { $0.outcome == .skipped }.map(\.id)
                var line = counts.isEmpty ? "no posts to prefetch" : counts.joined(separator: ", ")
                if !skipped.isEmpty { line += " (larger than \(maxSize): \(skipped.prefix(5).joined(separator: ", "))\(skipped.count > 5 ? ", …" : ""))" }
                Tool.blogctl.say(Terminal.sanitizeField(line))
            }
        }
    }
}
