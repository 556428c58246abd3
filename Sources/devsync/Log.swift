import ArgumentParser
import DevsyncKit
import FoundationEssentials
import ToolboxKit

extension Devsync {
    struct Log: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "log",
            abstract: "The history kept in the store: every change, sync attempt and pull, newest first.",
            discussion: """
                Events: recorded (install, uninstall, import: old is the value the device had \
                here), discarded, synced (old is the server's value before), failed and rejected \
                (with the attempt and the server's answer), pulled (the server's value changed) \
                conflict (it changed while a local change waited; the local one wins unless \
                taken from the server in devsync ui) and resolved (kept the local value in \
                devsync ui). The history survives syncs and is never rewritten. Piped: TIME, DEVICE, EVENT, OLD, \
                NEW, DETAIL lines.

                Examples:
                  devsync log WWM-0001-12
                  devsync log --since 2024-06-01T00:00:00Z | grep -w failed
                """)

        @OptionGroup var store: StoreOptions

        @OptionGroup var pager: PagerOption
        @OptionGroup var output: JSONFlag

        @Option(help: ArgumentHelp("Only events since this time (as install --at takes it).", valueName: "date"))
        var since: String?

        @Option(name: [.customShort("n"), .customLong("limit")], help: ArgumentHelp("Only the newest n events.", valueName: "n"))
        var limit: Int?

        @Argument(help: ArgumentHelp("Only this device's events.", valueName: "id"), completion: .custom { words, index, prefix in DeviceIDCompletion.candidates(before: Array(words.prefix(index)), prefix: prefix) }) var id: String?

        func validate() throws {
            if let limit, limit < 1 { throw ValidationError("--limit must be at least 1") }
        }

        func run() async throws {
            let since = try self.since.map(DateInput.parse)
            let events = try store.open(for: Self.self).history.events(device: id, since: since, limit: limit)
            let mode = output.mode
            if mode == .json { return StandardOutput.printJSON(events) }
            func value(_ date: Date?, _ event: HistoryEvent) -> String {
                if let date { return DateDisplay.format(date, for: mode) }
                switch event.event {
                case .recorded, .discarded, .synced, .pulled, .conflict, .resolved: return mode == .table ? "-" : ""
                case .failed, .rejected: return ""
                }
            }
            // Narrow, the detail gives way first, then the old and the new value; the device never,
            // so that it can be typed back (issue 47).
            let fits: [Table.Fit] = [.keep, .keep, .keep, .shrink(order: 1, minimum: 0),
                                     .shrink(order: 2, minimum: 0), .shrink(order: 0, minimum: 0)]
            let table = Table(columns: ["TIME", "DEVICE", "EVENT", "OLD", "NEW", "DETAIL"], fits: fits, rows: events.map {
                [DateDisplay.format($0.at, for: mode), $0.device, $0.event.rawValue, value($0.oldValue, $0), value($0.newValue, $0), $0.detail]
            })
            pager.print(table.render(mode))
        }
    }
}
