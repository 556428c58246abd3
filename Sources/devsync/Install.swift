import ArgumentParser
import DevsyncKit
import FoundationEssentials
import ToolboxKit

extension Devsync {
    struct Install: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "install",
            abstract: "Record that devices were installed; no network needed.",
            discussion: """
                DATE is \(DateInput.forms); a day alone is its midnight. The default \
                is now. Several ids get the same date, in one transaction: all or none. A later \
                change to the same device before a sync replaces this one.

                Examples:
                  devsync install WWM-0001-12 --at '2024-03-04 09:15'
                  devsync list --not-installed --type heating | cut -f1 | xargs devsync install --at today
                """)

        @OptionGroup var store: StoreOptions

        @Option(help: ArgumentHelp("When they were installed (default: now).", valueName: "date")) var at: String?
        @Flag(name: [.short, .long], help: "Print no confirmation.") var quiet = false
        @Argument(help: ArgumentHelp("The device ids.", valueName: "id"), completion: .custom { words, index, prefix in DeviceIDCompletion.candidates(before: Array(words.prefix(index)), prefix: prefix) }) var ids: [String]

        func validate() throws {
            guard !ids.isEmpty else { throw ValidationError("give at least one device id") }
        }

        func run() async throws {
            let date = try at.map(DateInput.parse) ?? Date()
            try RecordIDs.record(ids, installationDate: date, store: store.open(for: Self.self), quiet: quiet)
        }
    }
}

/// `install` and `uninstall`: one date for every id, recorded together.
enum RecordIDs {
    static func record(_ ids: [String], installationDate: Date?, store: DeviceStore, quiet: Bool) throws {
        let ids = try ids.map { id throws(ToolError) in try ResourceID.validate(id, kind: "device id") }
        if ids.count == 1 {
            try store.record(ids[0], installationDate: installationDate)
        } else {
            try store.recordAll(ids.map { ($0, installationDate) })
        }
        guard !quiet else { return }
        let what = installationDate.map { "installed \(DateDisplay.human($0))" } ?? "not installed"
        Tool.devsync.say((ids.count == 1 ? ids[0] : "\(ids.count) devices") + " \(what); pending sync")
    }
}
