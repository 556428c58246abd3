import ArgumentParser
import DevsyncKit
import ToolboxKit

extension Devsync {
    struct Sync: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "sync",
            abstract: "Send every pending change to the server, then pull.",
            discussion: """
                Up to --jobs changes are in flight at once. Transient failures (5xx, timeouts, \
                connection errors) are retried with exponential backoff and full jitter, up to \
                --retries more times per change; a 4xx marks the change rejected, kept and shown \
                by pending and show. With --wait, rounds repeat with growing pauses until every \
                change is through or rejected. Exit 0 when all are through, 75 when some remain \
                for transient reasons, 65 when some were rejected. With --json, the counts \
                (synced, rejected, remaining, heldElsewhere, damaged) as one JSON object on stdout. \
                With --dry-run, each request it would send (PATCH PATH BODY, or a JSON array), \
                and nothing is sent.
                """)

        @OptionGroup var store: StoreOptions
        @OptionGroup var common: CommonOptions
        @OptionGroup var binding: ServerBinding

        @Option(help: ArgumentHelp("Changes in flight at once.", valueName: "n")) var jobs = 4
        @Flag(help: "Keep trying, with backoff, until every change is through or rejected.") var wait = false
        @Flag(name: .customLong("dry-run"), help: "Print each request sync would send (PATCH PATH BODY), and send nothing.")
        var dryRun = false

        func validate() throws {
            guard (1...64).contains(jobs) else { throw ValidationError("--jobs must be between 1 and 64") }
        }

        func run() async throws {
            let deviceStore = try store.open(for: Self.self)
            // A dry run sends nothing and needs no server: it binds nothing either.
            if dryRun { return try showPlan(deviceStore) }
            try binding.bind(deviceStore, common)
            let progress = ProgressDisplay(label: "syncing", enabled: common.showsProgress, unit: .items)
            let report = try await common.withClient(tool: .devsync, waitSpinner: false) { client in
                progress.start()
                defer { progress.finish() }
                return try await SyncRun(store: deviceStore, client: client, jobs: jobs, retries: common.retries).run(
                    untilDone: wait,
                    progress: { progress.update(done: Int64($0), total: Int64($1)) },
                    onWait: { report, pause in
                        progress.finish()
                        if !common.quiet {
                            Tool.devsync.say("\(report.remaining + report.heldElsewhere) left; trying again in \(Int(pause.rounded(.up)))s")
                        }
                    },
                    warn: { if !common.quiet || !$0.hasPrefix("pull after sync") { Tool.devsync.warn("" + $0) } })
            }
            if common.json { StandardOutput.printJSON(report, pretty: false) }
            summarize(report)
            if report.exitStatus != ExitStatus.success { throw ExitCode(report.exitStatus.rawValue) }
        }

        /// `--dry-run`: the requests, in the order sync sends them; no network at all.
        func showPlan(_ deviceStore: DeviceStore) throws {
            let (changes, damaged) = try deviceStore.queue.planned()
            let patches = changes.map(DevicePatch.init)
            if common.json {
                StandardOutput.printJSON(patches)
            } else {
                StandardOutput.print(patches.map { Terminal.sanitizeField($0.line) + "\n" }.joined())
            }
            for id in damaged {
                Tool.devsync.say("the change to \(id) cannot be read from the store and would not be sent")
            }
            if !common.quiet {
                Tool.devsync.say("dry run: \(patches.count) change\(patches.count == 1 ? "" : "s") would be sent; nothing was sent")
            }
            if !damaged.isEmpty { throw ExitCode(ExitStatus.dataError.rawValue) }
        }

        func summarize(_ report: SyncReport) {
            for line in report.summary(quiet: common.quiet) { Tool.devsync.say("" + line) }
        }
    }
}
